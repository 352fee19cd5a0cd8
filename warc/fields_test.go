package warc

import (
	"testing"

	"github.com/robotstat/robotstat/internal/testkit"
)

func TestFieldValue(t *testing.T) {
	block := []byte("software: robotstat\r\nisPartOf:  CC-MAIN-2024-22 \r\nHOST: a.example\nempty:\r\n: no name\r\nisPartOf: second\r\nlast: x")
	tests := []struct {
		name, want string
		present    bool
	}{
		{"isPartOf", "CC-MAIN-2024-22", true}, // the first of two
		{"ispartof", "CC-MAIN-2024-22", true},
		{"host", "a.example", true}, // LF-only line, upper-case name
		{"empty", "", true},
		{"last", "x", true}, // no line end
		{"missing", "", false},
		{"", "", false}, // a line without a name is not a field
		{"software: robotstat", "", false},
	}
	for _, tc := range tests {
		got := FieldValue(block, tc.name)
		if string(got) != tc.want || (got != nil) != tc.present {
			t.Errorf("FieldValue(%q) = %q (present %v), want %q (present %v)", tc.name, got, got != nil, tc.want, tc.present)
		}
	}
	if testkit.Race {
		return
	}
	if n := testing.AllocsPerRun(100, func() { FieldValue(block, "last") }); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}
