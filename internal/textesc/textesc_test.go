package textesc

import (
	"testing"
	"unicode/utf8"
)

func TestData(t *testing.T) {
	for in, want := range map[string]string{
		"CC-MAIN-2024-22": "CC-MAIN-2024-22", "café": "café", "CC-MAIN-\xff\xfe": "CC-MAIN-%FF%FE",
		"/caf\xe9/": "/caf%E9/", "a\xe2\x82b": "a%E2%82b", "\x00tab\t": "\x00tab\t",
	} {
		got := Data(in)
		if got != want || !utf8.ValidString(got) {
			t.Errorf("Data(%q) = %q, want %q", in, got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { Data("https://example.com/robots.txt") }); n != 0 {
		t.Errorf("Data allocates %v times for valid text", n)
	}
}

func TestMessage(t *testing.T) {
	for in, want := range map[string]string{
		"x.warc": "x.warc", "café.warc": "café.warc", "a\x1b[2Jb": `a\x1B[2Jb`, "new\nline": `new\x0Aline`,
		"in\xff\xfedir": `in\xFF\xFEdir`, "c1\u0085x": `c1\x85x`, "del\x7f": `del\x7F`,
	} {
		if got := Message(in); got != want {
			t.Errorf("Message(%q) = %q, want %q", in, got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { Message("/data/crawl/x.warc.gz") }); n != 0 {
		t.Errorf("Message allocates %v times for printable text", n)
	}
}

func TestLines(t *testing.T) {
	if got, want := Lines("usage:\n\t--out DIR \x1b]0;x\x07"), "usage:\n\t--out DIR \\x1B]0;x\\x07"; got != want {
		t.Errorf("Lines = %q, want %q", got, want)
	}
}
