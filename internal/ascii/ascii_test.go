package ascii

import "testing"

func TestTrim(t *testing.T) {
	cases := []struct {
		name, in string
		set      *Set
		want     string
	}{
		{"ws_space_tab", " \tx y\t ", &WS, "x y"},
		{"ws_keeps_vt_ff", "\vx\f", &WS, "\vx\f"},
		{"ws_keeps_crlf", "x\r\n", &WS, "x\r\n"},
		{"robots_vt_ff", "\v\f x \f\v", &RobotsSpace, "x"},
		{"robots_keeps_cr", "\rx", &RobotsSpace, "\rx"},
		{"line_crlf", "\r\n x \r\n", &LineSpace, "x"},
		{"line_keeps_vt", "\vx", &LineSpace, "\vx"},
		{"all_space", " \t ", &WS, ""},
		{"empty", "", &LineSpace, ""},
		{"high_bytes_kept", "\xa0x\xa0", &RobotsSpace, "\xa0x\xa0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Trim(c.in, c.set); got != c.want {
				t.Errorf("Trim(%q) = %q, want %q", c.in, got, c.want)
			}
			if got := string(Trim([]byte(c.in), c.set)); got != c.want {
				t.Errorf("Trim([]byte %q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestSetHas(t *testing.T) {
	s := NewSet("\x00a\xff")
	for c := 0; c < 256; c++ {
		want := c == 0 || c == 'a' || c == 0xff
		if got := s.Has(byte(c)); got != want {
			t.Errorf("Has(%#x) = %v, want %v", c, got, want)
		}
	}
}

func TestFold(t *testing.T) {
	cases := []struct {
		a, b        string
		equal, pref bool
	}{
		{"Content-Length", "content-length", true, true},
		{"CONTENT-LENGTHx", "content-length", false, true},
		{"content", "content-length", false, false},
		{"\xc4", "\xe4", false, false}, // no Unicode folding
		{"", "", true, true},
		{"@[`{", "@[`{", true, true}, // bytes next to the letter ranges are not letters
		{"@", "`", false, false},
	}
	for _, c := range cases {
		if got := EqualFold(c.a, c.b); got != c.equal {
			t.Errorf("EqualFold(%q, %q) = %v", c.a, c.b, got)
		}
		if got := EqualFold([]byte(c.a), c.b); got != c.equal {
			t.Errorf("EqualFold([]byte %q, %q) = %v", c.a, c.b, got)
		}
		if got := HasPrefixFold([]byte(c.a), c.b); got != c.pref {
			t.Errorf("HasPrefixFold(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

func TestParseDecimal(t *testing.T) {
	cases := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true},
		{"1219", 1219, true},
		{"999999999999999999", 999999999999999999, true},
		{"1000000000000000000", 0, false}, // 19 digits could overflow
		{"", 0, false},
		{"-1", 0, false},
		{"12a", 0, false},
		{" 1", 0, false},
	}
	for _, c := range cases {
		got, ok := ParseDecimal(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseDecimal(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestNoAllocs(t *testing.T) {
	b := []byte("  Content-Length \r\n")
	n := testing.AllocsPerRun(100, func() {
		v := Trim(b, &LineSpace)
		_ = EqualFold(v, "content-length")
		_, _ = ParseDecimal(v)
	})
	if n != 0 {
		t.Errorf("allocs = %v, want 0", n)
	}
}
