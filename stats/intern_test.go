package stats

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCapped: values kept by directives.first_value, signals and
// diagnostics.value are valid UTF-8 and at most n bytes, also when invalid
// bytes (each replaced by the three-byte U+FFFD) make the text longer than
// the bytes it came from. FuzzAnalyzer found the first_value of
// "0:\xea0\xea\xb8000..." at 257 bytes.
func TestCapped(t *testing.T) {
	const n = 256
	tests := []struct {
		name, in string
		want     string // "" means: only check the bounds
	}{
		{name: "short", in: "abc", want: "abc"},
		{name: "ascii_cut", in: strings.Repeat("a", 300), want: strings.Repeat("a", n)},
		{name: "multibyte_not_split", in: strings.Repeat("ä", 200), want: strings.Repeat("ä", n/2)},
		{name: "three_byte_not_split", in: strings.Repeat("€", 100), want: strings.Repeat("€", n/3)},
		{name: "invalid_bytes_grow", in: strings.Repeat("\xff", 300), want: strings.Repeat("\uFFFD", n/3)},
		{name: "fuzz_regression", in: "\xea0\xea\xb8" + strings.Repeat("0", 253)},
	}
	var in interner
	for _, tt := range tests {
		got := in.capped([]byte(tt.in), n)
		if len(got) > n || !utf8.ValidString(got) {
			t.Errorf("%s: %d bytes, valid UTF-8 %v", tt.name, len(got), utf8.ValidString(got))
		}
		if tt.want != "" && got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}
