package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCrawlNameNotUTF8: a warcinfo isPartOf that is not UTF-8, or holds
// control characters, names the crawl with those bytes as %XX and is one
// counted record error (issue 26.5: CC-MAIN-\xff\xfe became a partition
// DuckDB could not decode); --crawl is refused so.
func TestCrawlNameNotUTF8(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ isPartOf, crawl string }{
		{"CC-MAIN-\xff\xfe", "CC-MAIN-%FF%FE"},
		{"CC-MAIN-\x1b[2J", "CC-MAIN-%1B[2J"},
	} {
		info := warcRecord("warcinfo", "", []byte("isPartOf: "+tc.isPartOf+"\r\n"), "Content-Type: application/warc-fields")
		caps, sum, err := collect(t, Config{Workers: 1}, writeTemp(t, "x.warc", cat(info, robotsResp("a.example", robotsBody))))
		if err != nil {
			t.Fatal(err)
		}
		if len(caps) != 1 || caps[0].Crawl != tc.crawl || sum.Errors[ClassRecord] != 1 || !strings.Contains(sum.Diagnostics[0].Error(), "isPartOf") {
			t.Errorf("%q: captures %+v, diagnostics %v", tc.isPartOf, caps, sum.Diagnostics)
		}
	}
	for _, bad := range []string{"CC-\xff", "a\nb"} {
		if err := (Config{Crawl: bad}).Validate(); !errors.Is(err, ErrConfig) {
			t.Errorf("Crawl %q: %v, want ErrConfig", bad, err)
		}
	}
}

// TestMessagesPrintable: control characters and bytes that are not UTF-8
// in a file name are escaped in a diagnostic and in the names a summary
// lists (issue 26.5: an ESC in a file name reached the terminal).
func TestMessagesPrintable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "x\x1b[2J\xff.warc")
	if err := os.WriteFile(bad, []byte("<html>not a warc</html>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "not a host\x1b.txt"), []byte("User-agent: *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, sum, err := collect(t, Config{Workers: 1}, dir)
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, d := range sum.Diagnostics {
		text = append(text, d.Error())
	}
	text = append(text, sum.NotHostExamples...)
	all := strings.Join(text, "\n")
	if len(sum.Diagnostics) != 1 || len(sum.NotHostExamples) != 1 || strings.Contains(all, "\x1b") || strings.Contains(all, "\xff") || !strings.Contains(all, `x\x1B[2J\xFF.warc`) {
		t.Errorf("messages %q", all)
	}
}
