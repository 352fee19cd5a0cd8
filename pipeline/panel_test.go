package pipeline

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckPanelSources: crawls by name and one range of Wayback months;
// anything else, or two ranges, is refused with what was wrong.
func TestCheckPanelSources(t *testing.T) {
	for _, c := range []struct {
		in      []string
		wayback bool
		err     string
	}{
		{in: []string{"CC-MAIN-2024-33"}},
		{in: []string{"CC-MAIN-2024-33", "wayback:2016-01..2016-12"}, wayback: true},
		{in: []string{"wayback:2016-01..2016-12", "wayback:2017-01..2017-02"}, err: "more than one wayback"},
		{in: []string{"wayback:2016-13..2017-01"}, err: "2016-13"},
		{in: []string{"crawl.warc.gz"}, err: `"crawl.warc.gz" is not a Common Crawl crawl name`},
	} {
		got, err := CheckPanelSources(c.in)
		if c.err == "" && (err != nil || got != c.wayback) {
			t.Errorf("%v: %v, %v; want %v", c.in, got, err, c.wayback)
		}
		if c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%v: error %v, want one saying %q", c.in, err, c.err)
		}
	}
	p := WaybackPanel([]string{"a.example"}, "http://127.0.0.1:1", "out", "ua")
	if p.WaybackBase != "http://127.0.0.1:1/" || p.WaybackArchive != filepath.Join("out", "warc", "wayback") || p.WaybackUserAgent != "ua" {
		t.Errorf("WaybackPanel: %+v", p)
	}
}
