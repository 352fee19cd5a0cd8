package schema

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"testing"
)

func TestCaptureID(t *testing.T) {
	t.Parallel()
	hex32 := regexp.MustCompile(`^[0-9a-f]{32}$`)
	const id = "urn:uuid:6b5b5a2e-1c1e-4b8e-9f0a-0c2d3e4f5a6b"
	type in struct {
		recordID, crawl, path string
		offset                int64
	}
	tests := []struct {
		name  string
		a, b  in
		same  bool
		wantA string // golden value of a, when set: the id must never change
	}{
		{name: "golden_record_id", a: in{"<" + id + ">", "c1", "x.warc.gz", 1}, b: in{id, "c2", "y.warc.gz", 2}, same: true,
			wantA: CaptureID(id, "", "", 0)},
		{name: "record_id_ignores_space_and_brackets", a: in{"  <" + id + "> ", "", "", 0}, b: in{id, "", "", 0}, same: true},
		{name: "offset_matters", a: in{"", "", "a.jsonl", 1}, b: in{"", "", "a.jsonl", 2}},
		{name: "path_matters", a: in{"", "", "a.jsonl", 1}, b: in{"", "", "b.jsonl", 1}},
		// Issue 10: two folders of a mirror tree hold files of the same
		// name; their relative paths tell them apart.
		{name: "same_base_name_other_folder", a: in{"", "", "a/example.org/robots.txt", 0}, b: in{"", "", "b/example.org/robots.txt", 0}},
		{name: "crawl_matters", a: in{"", "CC-MAIN-2024-33", "example.org", 0}, b: in{"", "CC-MAIN-2024-38", "example.org", 0}},
		{name: "crawl_path_boundary", a: in{"", "a", "b@1", 0}, b: in{"", "ab", "@1", 0}},
		{name: "record_id_vs_source_never_collide", a: in{"src:\na@1", "", "", 0}, b: in{"", "", "a", 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := CaptureID(tt.a.recordID, tt.a.crawl, tt.a.path, tt.a.offset)
			b := CaptureID(tt.b.recordID, tt.b.crawl, tt.b.path, tt.b.offset)
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
// sha256sum: printf 'warc:urn:uuid:...' | sha256sum | cut -c1-32, and
// printf 'src:CRAWL\nPATH@OFFSET' | sha256sum | cut -c1-32.
func TestCaptureIDGolden(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                    string
		recordID, crawl, source string
		offset                  int64
		want                    string
	}{
		{"record_id", "<urn:uuid:00000000-0000-0000-0000-000000000000>", "", "", 0, "0aede68a367b4d27080134b87f7dfd92"},
		{"source_offset", "", "", "CC-MAIN-20240803-00000.warc.gz", 1234, "fc2e2d5920b9c5673ae2af623d31f84a"},
		{"crawl_folder_path", "", "CC-MAIN-2024-33", "a/example.org/robots.txt", 0, "7f47e5db898c884c53aa348982206b3f"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CaptureID(tt.recordID, tt.crawl, tt.source, tt.offset); got != tt.want {
				t.Errorf("CaptureID(%q, %q, %q, %d) = %s, want %s", tt.recordID, tt.crawl, tt.source, tt.offset, got, tt.want)
			}
		})
	}
}

func TestCaptureIDAllocs(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() {
		_ = CaptureID("<urn:uuid:00000000-0000-0000-0000-000000000000>", "", "", 0)
		_ = CaptureID("", "CC-MAIN-2024-33", "a/example.org/robots.txt", 12345)
	})
	if allocs > 2 { // the returned strings
		t.Errorf("CaptureID allocates %.0f times, want at most 1", allocs)
	}
}

// TestTrimRecordID: the one trimming of a WARC-Record-ID, which the
// captures and errors tables' warc_record_id and CaptureID share, so that
// a record's errors join its capture.
func TestTrimRecordID(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"<urn:uuid:a>", "urn:uuid:a"},
		{"  <urn:uuid:a> \t", "urn:uuid:a"},
		{"urn:uuid:a", "urn:uuid:a"},
		{"<urn:uuid:a", "urn:uuid:a"},
		{"<<urn:uuid:a>>", "<urn:uuid:a>"}, // one pair, as WARC 1.1 section 5.2 writes it
		{"<>", ""},
		{"", ""},
	} {
		if got := TrimRecordID(tt.in); got != tt.want {
			t.Errorf("TrimRecordID(%q) = %q, want %q", tt.in, got, tt.want)
		}
		sum := sha256.Sum256([]byte("warc:" + tt.want))
		if got := CaptureID(tt.in, "c", "p", 1); tt.want != "" && got != hex.EncodeToString(sum[:16]) {
			t.Errorf("CaptureID(%q) = %s, want the id of warc:%s", tt.in, got, tt.want)
		}
	}
}
