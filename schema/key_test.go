package schema

import (
	"regexp"
	"testing"
)

func TestCaptureID(t *testing.T) {
	hex32 := regexp.MustCompile(`^[0-9a-f]{32}$`)
	const id = "urn:uuid:6b5b5a2e-1c1e-4b8e-9f0a-0c2d3e4f5a6b"
	tests := []struct {
		name  string
		a, b  [3]any // recordID, source, offset
		same  bool
		wantA string // golden value of a, when set: the id must never change
	}{
		{name: "golden_record_id", a: [3]any{"<" + id + ">", "x.warc.gz", int64(1)}, b: [3]any{id, "y.warc.gz", int64(2)}, same: true,
			wantA: CaptureID(id, "", 0)},
		{name: "record_id_ignores_space_and_brackets", a: [3]any{"  <" + id + "> ", "", int64(0)}, b: [3]any{id, "", int64(0)}, same: true},
		{name: "source_base_name_only", a: [3]any{"", "/data/crawl/CC-MAIN-1.warc.gz", int64(512)}, b: [3]any{"", "CC-MAIN-1.warc.gz", int64(512)}, same: true},
		{name: "source_url_base_name", a: [3]any{"", "https://data.example/crawl/CC-MAIN-1.warc.gz?sig=abc", int64(512)}, b: [3]any{"", "CC-MAIN-1.warc.gz", int64(512)}, same: true},
		{name: "windows_path", a: [3]any{"", `C:\crawl\CC-MAIN-1.warc.gz`, int64(512)}, b: [3]any{"", "CC-MAIN-1.warc.gz", int64(512)}, same: true},
		{name: "offset_matters", a: [3]any{"", "a.warc.gz", int64(1)}, b: [3]any{"", "a.warc.gz", int64(2)}},
		{name: "source_matters", a: [3]any{"", "a.warc.gz", int64(1)}, b: [3]any{"", "b.warc.gz", int64(1)}},
		{name: "record_id_vs_source_never_collide", a: [3]any{"src:a@1", "", int64(0)}, b: [3]any{"", "a", int64(1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := CaptureID(tt.a[0].(string), tt.a[1].(string), tt.a[2].(int64))
			b := CaptureID(tt.b[0].(string), tt.b[1].(string), tt.b[2].(int64))
			if !hex32.MatchString(a) || !hex32.MatchString(b) {
				t.Fatalf("ids %q, %q are not 32 hex digits", a, b)
			}
			if (a == b) != tt.same {
				t.Errorf("CaptureID(%v) = %s, CaptureID(%v) = %s; same = %v, want %v", tt.a, a, tt.b, b, a == b, tt.same)
			}
			if tt.wantA != "" && a != tt.wantA {
				t.Errorf("got %s, want %s", a, tt.wantA)
			}
		})
	}
}

// TestCaptureIDGolden pins the ids: changing them silently would break joins
// between runs and the replace-on-rerun promise. The wanted values come from
// sha256sum: printf 'warc:urn:uuid:...' | sha256sum | cut -c1-32.
func TestCaptureIDGolden(t *testing.T) {
	tests := []struct {
		name             string
		recordID, source string
		offset           int64
		want             string
	}{
		{"record_id", "<urn:uuid:00000000-0000-0000-0000-000000000000>", "", 0, "0aede68a367b4d27080134b87f7dfd92"},
		{"source_offset", "", "CC-MAIN-20240803-00000.warc.gz", 1234, "09f39607ea6aae17255267beef2fa0f4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CaptureID(tt.recordID, tt.source, tt.offset); got != tt.want {
				t.Errorf("CaptureID(%q, %q, %d) = %s, want %s", tt.recordID, tt.source, tt.offset, got, tt.want)
			}
		})
	}
}

func TestCaptureIDAllocs(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() {
		_ = CaptureID("<urn:uuid:00000000-0000-0000-0000-000000000000>", "", 0)
	})
	if allocs > 1 { // the returned string
		t.Errorf("CaptureID allocates %.0f times, want at most 1", allocs)
	}
}
