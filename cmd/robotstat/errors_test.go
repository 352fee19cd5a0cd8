package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/schema"
)

const sharedRepro = "../../../shared/repro"

// errorRow is an errors row with the pointers dereferenced (-1 for NULL),
// for comparing.
type errorRow struct {
	crawl, input, class, message string
	offset, record               int64
}

func readErrors(t *testing.T, root string) []errorRow {
	t.Helper()
	var out []errorRow
	for _, r := range readTable[schema.ErrorRow](t, root, schema.Errors) {
		e := errorRow{crawl: r.Crawl, input: filepath.Base(r.Input), class: r.Class, message: r.Message, offset: -1, record: -1}
		if r.Offset != nil {
			e.offset = *r.Offset
		}
		if r.Record != nil {
			e.record = *r.Record
		}
		if filepath.Base(r.Source) != e.input {
			t.Errorf("error source %q is not of its input %q", r.Source, r.Input)
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b errorRow) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
	return out
}

// TestAnalyzeErrorsTable runs analyze over the hand-found faults of
// ../shared/repro and a download refused with 403: every located error is
// a row of the errors table (the refused input one of class input), the
// same rows whatever --workers is, and --errors N prints the first N on
// stderr.
func TestAnalyzeErrorsTable(t *testing.T) {
	t.Parallel()
	names := []string{"g01_trunc_member_mid_header.warc.gz", "panic.warc", "w06_cl_huge_18digits.warc.gz"}
	var inputs []string
	for _, n := range names {
		p := filepath.Join(sharedRepro, n)
		if _, err := os.Stat(p); err != nil {
			t.Skip("../shared/repro not present")
		}
		inputs = append(inputs, p)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "rate limited", http.StatusForbidden)
	}))
	defer srv.Close()
	inputs = append(inputs, srv.URL+"/crawl-data/refused.warc.gz")

	// The inputs that gave no capture and name no crawl are filed under
	// the run's first crawl, not a partition without a crawl (issue 25.3).
	want := []errorRow{
		{crawl: "TEST-CRAWL", input: "g01_trunc_member_mid_header.warc.gz", class: "container", message: "broken gzip member: flate: corrupt input before offset 5", offset: 1540, record: -1},
		{crawl: "TEST-CRAWL", input: "panic.warc", class: "record", message: "missing or invalid WARC Content-Length", offset: 0, record: 0},
		{crawl: "TEST-CRAWL", input: "refused.warc.gz", class: "input", offset: -1, record: -1},
		{crawl: "TEST-CRAWL", input: "w06_cl_huge_18digits.warc.gz", class: "record", message: "missing or invalid WARC Content-Length: the block runs past the end of its gzip member or zstd frame, into the next record", offset: 1540, record: 6},
	}
	var first []errorRow
	for _, workers := range []string{"1", "4"} {
		out := filepath.Join(t.TempDir(), "out")
		_, stderr, code := run(t, "", append([]string{"analyze", "--quiet", "--workers", workers, "--out", out}, inputs...)...)
		if code != ExitInputsFailed {
			t.Fatalf("--workers %s: exit %d, want %d\n%s", workers, code, ExitInputsFailed, stderr)
		}
		got := readErrors(t, out)
		for i := range got { // the refused input's message names the server's port
			if got[i].class == "input" {
				if !strings.Contains(got[i].message, "403") {
					t.Errorf("refused input's message %q does not say 403", got[i].message)
				}
				got[i].message = ""
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("--workers %s: errors rows\n%v\nwant\n%v", workers, got, want)
		}
		if first == nil {
			first = got
		}
		// Every located error is on stderr, in input order.
		if !strings.Contains(stderr, "robotstat: the 3 input errors; all of them are in the errors table:\n") {
			t.Errorf("no list of errors:\n%s", stderr)
		}
		for _, e := range want {
			if e.class != "input" && !strings.Contains(stderr, fmt.Sprintf("%s:%d: ", e.input, e.offset)) {
				t.Errorf("stderr does not locate %s:%d:\n%s", e.input, e.offset, stderr)
			}
		}
	}

	out := filepath.Join(t.TempDir(), "out")
	_, stderr, _ := run(t, "", "analyze", "--quiet", "--errors", "1", "--out", out, inputs[0], inputs[1], inputs[2])
	if !strings.Contains(stderr, "robotstat: 1 of the 3 input errors (--errors N shows more); all of them are in the errors table:\n") {
		t.Errorf("--errors 1:\n%s", stderr)
	}
	if n := len(readErrors(t, out)); n != 3 {
		t.Errorf("--errors 1 wrote %d errors rows, want all 3", n)
	}
	_, stderr, _ = run(t, "", "analyze", "--quiet", "--errors", "0", "--redo", "--out", out, inputs[0])
	if strings.Contains(stderr, "input error") {
		t.Errorf("--errors 0 printed errors:\n%s", stderr)
	}
}
