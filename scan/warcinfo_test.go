package scan

import (
	"bytes"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/warc"
)

// TestWarcinfoDescription: the warcinfo record says the redirect limit and
// the body limit the scan ran with, the defaults as they always read.
func TestWarcinfoDescription(t *testing.T) {
	for _, tc := range []struct {
		redirects int
		body      int64
		want      string
	}{
		{DefaultRedirects, DefaultBodyLimit, "(https then http, up to 5 redirects, 500 KiB kept)"},
		{2, 1000, "(https then http, up to 2 redirects, 1000 bytes kept)"},
	} {
		cfg := DefaultConfig()
		cfg.MaxRedirects, cfg.BodyLimit = tc.redirects, tc.body
		s := &scanner{cfg: &cfg, fetcher: &fetcher{cfg: &cfg}}
		m := warc.NewMemberReader(bytes.NewReader(s.warcinfo("scan-x.warc.gz")), 64<<10)
		if !m.Next() {
			t.Fatalf("no record: %v", m.Err())
		}
		if d := string(warc.FieldValue(m.Block(), "description")); !strings.Contains(d, tc.want) {
			t.Errorf("description %q, want it to say %q", d, tc.want)
		}
	}
}
