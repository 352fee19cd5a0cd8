package runs_test

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/runs"
)

// TestUnitID: an id is the input's base name, made safe, and a hash of the
// whole name, so it is stable and two inputs of one base name differ.
func TestUnitID(t *testing.T) {
	for _, tc := range []struct{ name, canonical, prefix string }{
		{"crawl_file", "commoncrawl:crawl-data/CC-MAIN-2024-22/segments/1.0/robotstxt/CC-MAIN-20240518-00000.warc.gz", "CC-MAIN-20240518-00000-"},
		{"url_query_dropped", "https://example.com/a/dump.jsonl.gz?x=1", "dump-"},
		{"unsafe_bytes", "/data/my file (2).warc", "my_file__2_-"},
		{"nothing_safe", "/data/(((", "input-"},
		{"stdin", "stdin", "stdin-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := runs.UnitID(tc.canonical)
			if !regexp.MustCompile("^" + regexp.QuoteMeta(tc.prefix) + "[0-9a-f]{16}$").MatchString(id) {
				t.Errorf("UnitID(%q) = %q, want %s + 16 hex digits", tc.canonical, id, tc.prefix)
			}
			if again := runs.UnitID(tc.canonical); again != id {
				t.Errorf("UnitID not stable: %q then %q", id, again)
			}
		})
	}
	if a, b := runs.UnitID("/a/x.warc.gz"), runs.UnitID("/b/x.warc.gz"); a == b {
		t.Errorf("two inputs of one base name share id %s", a)
	}
}

// TestCanonicalUnit: a file of a crawl read by name is the same unit from
// every base; any other input is its canonical name.
func TestCanonicalUnit(t *testing.T) {
	p := "crawl-data/CC-MAIN-2024-22/segments/1.0/robotstxt/f.warc.gz"
	want := runs.CrawlFilePrefix + p
	for _, base := range []string{"https://data.commoncrawl.org/", "s3://commoncrawl/", "/mirror/"} {
		if got := runs.CanonicalUnit(pipeline.Unit{Name: base + p, Crawl: "CC-MAIN-2024-22"}, nil); got != want {
			t.Errorf("from %s: %q, want %q", base, got, want)
		}
	}
	abs, _ := filepath.Abs("x.warc.gz")
	for _, tc := range []struct{ name, want string }{
		{"x.warc.gz", abs},
		{"./sub/../x.warc.gz", abs},
		{"-", "stdin"},
		{"https://h/x.warc.gz", "https://h/x.warc.gz"},
		{"s3://b/k.warc.gz", "s3://b/k.warc.gz"},
	} {
		if got := runs.CanonicalUnit(pipeline.Unit{Name: tc.name}, nil); got != tc.want {
			t.Errorf("CanonicalUnit(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	named := func(string) string { return "robotstat:sample:1" }
	if got := runs.CanonicalUnit(pipeline.Unit{Name: "/tmp/x"}, named); got != "robotstat:sample:1" {
		t.Errorf("with a name function: %q", got)
	}
}
