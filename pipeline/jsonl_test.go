package pipeline

import (
	"strings"
	"testing"
)

// TestJSONLCutLastRow: a JSONL file cut inside its last row loses that row
// with one counted row error, whatever the row's length: under maxRow it
// is a bad JSON object, over maxRow a line too long (issue 26.4: at 17 MiB
// it vanished with "0 errors", at 15 MiB it was counted as a malformed object). A long row that
// ends with its newline, the next row read, is counted the same way.
func TestJSONLCutLastRow(t *testing.T) {
	t.Parallel()
	good := `{"url":"https://a.example/robots.txt","body":"User-agent: *\nDisallow: /\n"}` + "\n"
	cut := func(n int) string { return `{"url":"https://b.example/robots.txt","body":"` + strings.Repeat("x", n) }
	tests := []struct {
		name string
		data string
		caps int
	}{
		{"cut_17MiB", good + cut(17<<20), 1},
		{"whole_17MiB_then_good", good + cut(17<<20) + "\"}\n" + good, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			caps, sum, err := collect(t, Config{Workers: 1}, writeTemp(t, "x.jsonl", []byte(tc.data)))
			if err != nil {
				t.Fatal(err)
			}
			if len(caps) != tc.caps || sum.Errors[ClassRow] != 1 || sum.Records != int64(tc.caps)+1 {
				t.Fatalf("%d captures, %d row errors, %d records; want %d, 1, %d: %v", len(caps), sum.Errors[ClassRow], sum.Records, tc.caps, tc.caps+1, sum.Diagnostics)
			}
		})
	}
}

// TestJSONLRowErrorsSayWhy: a row error says what the line is (issue
// 26.7: JSON nested 20000 deep was "not a JSON object").
func TestJSONLRowErrorsSayWhy(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, line, says string }{
		{"deep", `{"url":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "}", "nested deeper than 10000"},
		{"array", `["https://a.example/robots.txt"]`, "a JSON array, not an object"},
		{"cut", `{"url":"https://a.example/robots.txt",`, "malformed JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, sum, err := collect(t, Config{Workers: 1}, writeTemp(t, "x.jsonl", []byte(tc.line+"\n")))
			if err != nil {
				t.Fatal(err)
			}
			if len(sum.Diagnostics) != 1 || !strings.Contains(sum.Diagnostics[0].Error(), tc.says) {
				t.Errorf("diagnostics %v, want one saying %q", sum.Diagnostics, tc.says)
			}
		})
	}
}
