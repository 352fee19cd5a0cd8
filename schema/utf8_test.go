package schema_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/robotstat/robotstat/schema"
)

// TestStringsWrittenAreUTF8: every string a table holds is UTF-8, its bad
// bytes written as %XX, in every kind of field a row has (string, *string,
// []string, a slice of structs), the crawl and its partition alike (issue
// 26.5: one byte made a whole file unreadable in DuckDB); a shared slice
// of the caller's is not changed in place.
func TestStringsWrittenAreUTF8(t *testing.T) {
	t.Parallel()
	ds := create(t, schema.Options{Tables: []schema.TableName{schema.Captures, schema.Groups, schema.Directives, schema.SiteHistory}})
	key := schema.Key{CaptureID: "c1", Crawl: "CC-MAIN-\xff\xfe", URL: "https://a.example/r\xffobots.txt", Host: "a.example"}
	shared := []string{"Bot\xff", "ok"}
	loc := "https://b.example/\xfe"
	caps := []schema.CaptureRow{{Key: key, Source: "in\xffdir/x.warc", RedirectTarget: loc, ContentType: "text/pl\xffain"}}
	groups := []schema.GroupRow{{Key: key, UserAgents: shared, ProductTokens: []string{"fine"}}}
	dirs := []schema.DirectiveRow{{Key: key, FirstValue: "/caf\xe9/", Signals: []schema.Signal{{Key: "search", Value: "y\xff"}}}}
	reg := "bad\xff.example"
	hist := []schema.SiteHistoryRow{{Host: "h\xff", RegisteredDomain: &reg}}
	if err := schema.WriterOf[schema.CaptureRow](ds).Write(caps); err != nil {
		t.Fatal(err)
	}
	if err := schema.WriterOf[schema.GroupRow](ds).Local().Write(groups); err != nil {
		t.Fatal(err)
	}
	if err := schema.WriterOf[schema.DirectiveRow](ds).Local().Write(dirs); err != nil {
		t.Fatal(err)
	}
	if err := schema.WriterOf[schema.SiteHistoryRow](ds).Write(hist); err != nil {
		t.Fatal(err)
	}
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	if shared[0] != "Bot\xff" || reg != "bad\xff.example" {
		t.Errorf("the caller's memory changed: %q %q", shared, reg)
	}
	c := readTable[schema.CaptureRow](t, ds)
	g := readTable[schema.GroupRow](t, ds)
	d := readTable[schema.DirectiveRow](t, ds)
	h := readTable[schema.SiteHistoryRow](t, ds)
	if len(c) != 1 || len(g) != 1 || len(d) != 1 || len(h) != 1 {
		t.Fatalf("rows %d %d %d %d", len(c), len(g), len(d), len(h))
	}
	for _, f := range []struct{ got, want string }{
		{c[0].Crawl, "CC-MAIN-%FF%FE"}, {c[0].URL, "https://a.example/r%FFobots.txt"}, {c[0].Source, "in%FFdir/x.warc"},
		{c[0].RedirectTarget, "https://b.example/%FE"}, {c[0].ContentType, "text/pl%FFain"},
		{g[0].UserAgents[0], "Bot%FF"}, {d[0].FirstValue, "/caf%E9/"}, {d[0].Signals[0].Value, "y%FF"},
		{h[0].Host, "h%FF"}, {*h[0].RegisteredDomain, "bad%FF.example"},
	} {
		if f.got != f.want || !utf8.ValidString(f.got) {
			t.Errorf("read %q, want %q", f.got, f.want)
		}
	}
	if !slices.ContainsFunc(ds.Files(), func(f string) bool { return strings.HasPrefix(f, "captures/crawl=CC-MAIN-%25FF%25FE/") }) {
		t.Errorf("files %v: want the partition of the escaped crawl", ds.Files())
	}
}
