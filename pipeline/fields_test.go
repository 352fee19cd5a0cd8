package pipeline

import "testing"

// TestParseFields: --fields reads name=column pairs; String gives them back
// in one order, so that a run records the same option for the same
// columns however they were written.
func TestParseFields(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, want, err string
	}{
		{in: "", want: ""},
		{in: "url=U,host=H,status=S,body=B,time=T", want: "url=U,host=H,status=S,body=B,time=T"},
		{in: "body=text,url=link", want: "url=link,body=text"},
		{in: "url", err: `"url" is not name=column`},
		{in: "url=", err: `"url=" is not name=column`},
		{in: "size=S", err: `unknown field "size" (want url, host, status, body or time)`},
	} {
		f, err := ParseFields(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("ParseFields(%q): err %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || f.String() != tc.want {
			t.Errorf("ParseFields(%q) = %q, %v; want %q", tc.in, f.String(), err, tc.want)
		}
		if again, err := ParseFields(f.String()); err != nil || again != f {
			t.Errorf("%q does not read back: %+v, %v", f.String(), again, err)
		}
	}
}
