package stats

import (
	"fmt"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/schema"
)

// One row per pair, with the line, the group (RFC 9309 grouping: a
// Content-Signal line between user-agent lines does not end their run) and
// whether the group names *, and the Content-Usage path scoping the pairs
// after it on its line only.
func TestSignalRows(t *testing.T) {
	body := strings.Join([]string{
		"Content-Signal: ai-train=no",                // 1: before any group
		"User-agent: GPTBot",                         // 2: group 0
		"Content-Signal: search=yes, use=reference",  // 3: group 0 (named)
		"User-agent: *",                              // 4: still group 0: * too
		"Disallow: /private/",                        // 5
		"Content-Usage: /news/ train-ai=n, search=y", // 6: path /news/
		"Content-Usage: train-ai=y",                  // 7: no path
		"",
		"User-agent: CCBot",            // 9: group 1
		"Disallow: /",                  // 10
		"CONTENT-SIGNAL: AI-Input=No",  // 11: group 1, key lower-cased, value as written
		"Content-Usage: /only-a-path/", // 12: a path and no pairs: no row
	}, "\n") + "\n"
	rows := analyze(t, DefaultOptions(), captureOf([]byte(body), 200)).SignalRows
	var got []string
	for _, r := range rows {
		g := "-"
		if r.GroupIndex != nil {
			g = fmt.Sprint(*r.GroupIndex)
		}
		got = append(got, fmt.Sprintf("%s line=%d group=%s star=%v path=%q %s=%s", r.Directive, r.Line, g, r.StarGroup, r.Path, r.Name, r.Value))
	}
	want := []string{
		`content-signal line=1 group=- star=false path="" ai-train=no`,
		`content-signal line=3 group=0 star=true path="" search=yes`,
		`content-signal line=3 group=0 star=true path="" use=reference`,
		`content-usage line=6 group=0 star=true path="/news/" train-ai=n`,
		`content-usage line=6 group=0 star=true path="/news/" search=y`,
		`content-usage line=7 group=0 star=true path="" train-ai=y`,
		`content-signal line=11 group=1 star=false path="" ai-input=No`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("signals rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, r := range rows {
		if r.Key.CaptureID == "" || r.Key.Host != "www.example.com" {
			t.Errorf("row without its capture's key: %+v", r.Key)
		}
	}
	// Without the table nothing is built, with it and without directives the
	// pairs are still collected.
	o := DefaultOptions()
	o.Tables = []schema.TableName{schema.Captures, schema.Signals}
	if n := len(analyze(t, o, captureOf([]byte(body), 200)).SignalRows); n != len(want) {
		t.Errorf("signals without directives: %d rows, want %d", n, len(want))
	}
	o.Tables = []schema.TableName{schema.Captures, schema.Directives}
	if n := len(analyze(t, o, captureOf([]byte(body), 200)).SignalRows); n != 0 {
		t.Errorf("signals table not enabled: %d rows", n)
	}
}
