package runs_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/runs"
	"github.com/robotstat/robotstat/schema"
)

// TestWriteSummary: the summary analyze prints, line by line, for a run
// that left things out, replaced, repaired and failed inputs, and for a
// panel; a plain run has the three lines and the next step.
func TestWriteSummary(t *testing.T) {
	t.Parallel()
	outcomes := map[string]int64{schema.OutcomeParsed: 7, schema.OutcomeUnavailable: 2, schema.OutcomeUnreachable: 1, schema.OutcomeRedirect: 0}
	plain := runs.Result{Dir: "/d", Captures: 10, Outcomes: outcomes, Committed: 1,
		Rows: map[string]int64{"errors": 0, "captures": 10, "groups": 4}}
	var failed []runs.Failure
	for i := range 12 {
		failed = append(failed, runs.Failure{Input: fmt.Sprintf("in%02d", i), Error: "EOF", Captures: int64(i), Refused: i%4 == 0})
	}
	busy := runs.Result{Dir: "/d", Outcomes: outcomes, Committed: 13, Skipped: 1, Repaired: 2, Failed: failed,
		Replaced: map[string]int{"tables": 3, "parse_limit": 1},
		NotHosts: 3, NotHostExamples: []string{"a", "b"}, Duplicates: 1, DuplicateExamples: []string{"x"},
		OutputDirs: 1, OutputDirExamples: []string{"out"}, Empty: 2, EmptyExamples: []string{"e1", "e2"}, OtherResponses: 4}
	busy.Summary.Errors[pipeline.ClassCrawl] = 2
	panel := runs.NewPanelResult("top.csv",
		&pipeline.SiteListFile{Entries: 8, Hosts: []string{"a.example", "b.example"}, Skipped: []string{"line 1: s1", "line 2: s2", "line 3: s3", "line 4: s4", "line 5: s5", "line 6: s6"}},
		[]pipeline.Coverage{
			{Crawl: "CC-MAIN-2025-08", Listed: 2, Found: 1, Failed: 1, FailedHosts: []string{"b.example"}, IndexRequests: 3, IndexBytes: 2_500_000, RowGroups: 9, RowGroupsRead: 2, Pages: 40, PagesRead: 5, Records: 1, RecordRequests: 1, RecordBytes: 1500, RedirectTargets: 1},
			{Crawl: "CC-MAIN-2024-33", Listed: 2, Found: 2, IndexRequests: 1, IndexBytes: 999, Records: 2, RecordRequests: 1, RecordBytes: 2_000_000_000},
		})
	for _, tc := range []struct {
		name string
		r    runs.Result
		o    runs.SummaryOptions
		want []string
	}{
		{"plain_sample", plain, runs.SummaryOptions{Sample: true, Next: true}, []string{
			"robotstat: read the embedded sample: 0 files, 0 captures (0 records), 0 errors, 0.0 s, 0.0 MB/s",
			"robotstat: 10 captures: 7 parsed, 2 unavailable (4xx, allow all), 1 unreachable (5xx, disallow all), 0 redirected (3xx)",
			"robotstat: wrote /d: 1 input (rows: captures 10, groups 4, errors 0); next: robotstat report /d",
		}},
		{"busy", busy, runs.SummaryOptions{}, []string{
			"robotstat: read inputs: 0 files, 0 captures (0 records), 2 errors (crawl 2), 0.0 s, 0.0 MB/s",
			"robotstat: 0 captures: 7 parsed, 2 unavailable (4xx, allow all), 1 unreachable (5xx, disallow all), 0 redirected (3xx)",
			"robotstat: 3 files not read: their names are not host names (a, b, ...); a file of a folder or tar is read as the robots.txt of the host it is named by: example.com, example.com-robots.txt, example.com/robots.txt",
			"robotstat: 1 input named twice, read once: x",
			"robotstat: 1 robotstat output folder inside the input folders not read: out (it has _robotstat/: tables and records, not robots.txt files)",
			"robotstat: 2 inputs held no record or row at all: e1, e2",
			"robotstat: 2 WARC files name another crawl in their warcinfo (isPartOf) than their path (crawl-data/CC-MAIN-YYYY-WW/): their captures are filed under the path's crawl; the errors table names each (class crawl)",
			"robotstat: 4 WARC responses read past: their targets are not /robots.txt, and outside a Common Crawl robotstxt WARC --responses auto counts only /robots.txt; --responses all counts every response",
			"robotstat: wrote /d: 13 inputs, 12 of them failed (rows: none)",
			"robotstat: 1 input already in /d from a run with the same options: skipped (--redo reads them again)",
			"robotstat: 2 inputs in /d had missing, emptied or cut files (robotstat status /d named them): read again, their rows replaced",
			"robotstat: 1 input in /d had been analysed with other options (parse_limit): read again, their rows replaced",
			"robotstat: 3 inputs in /d had been analysed with other options (tables): read again, their rows replaced",
			"robotstat: input failed: in00: EOF (0 captures read before kept; a rerun retries it)",
			"robotstat: input failed: in01: EOF (1 captures read before kept; a rerun retries it)",
			"robotstat: input failed: in02: EOF (2 captures read before kept; a rerun retries it)",
			"robotstat: input failed: in03: EOF (3 captures read before kept; a rerun retries it)",
			"robotstat: input failed: in04: EOF (4 captures read before kept; a rerun retries it)",
			"robotstat: input failed: in05: EOF (5 captures read before kept; a rerun retries it)",
			"robotstat: input failed: in06: EOF (6 captures read before kept; a rerun retries it)",
			"robotstat: input failed: in07: EOF (7 captures read before kept; a rerun retries it)",
			"robotstat: input failed: in08: EOF (8 captures read before kept; a rerun retries it)",
			"robotstat: input failed: in09: EOF (9 captures read before kept; a rerun retries it)",
			"robotstat: ... and 2 more failed inputs (robotstat status /d lists them all)",
			"robotstat: " + runs.RefusedHint(3),
		}},
		{"panel", plain, runs.SummaryOptions{Panel: panel}, []string{
			"robotstat: read inputs: 0 files, 0 captures (0 records), 0 errors, 0.0 s, 0.0 MB/s",
			"robotstat: 10 captures: 7 parsed, 2 unavailable (4xx, allow all), 1 unreachable (5xx, disallow all), 0 redirected (3xx)",
			"robotstat: panel of 2 hosts from 8 entries of top.csv; 6 entries are not host names, skipped: line 1: s1; line 2: s2; line 3: s3; line 4: s4; line 5: s5, ...",
			"robotstat: panel CC-MAIN-2024-33: 2 found, 0 not captured, 0 failed of 2 listed; index 1 request, 999 B (0 of 0 row groups, 0 of 0 key pages); 2 records in 1 request, 2.00 GB; 0 redirect targets looked up; per listed host 0.50 index + 0.50 record requests, 499 B + 1.00 GB",
			"robotstat: panel CC-MAIN-2025-08: 1 found, 0 not captured, 1 failed of 2 listed; index 3 requests, 2.5 MB (2 of 9 row groups, 5 of 40 key pages); 1 record in 1 request, 1.5 kB; 1 redirect target looked up; per listed host 1.50 index + 0.50 record requests, 1.2 MB + 750 B",
			"robotstat: panel CC-MAIN-2025-08: failed: b.example (the errors table locates why; a rerun with --redo reads the crawl again)",
			"robotstat: wrote /d: 1 input (rows: captures 10, groups 4, errors 0)",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			tc.r.WriteSummary(&b, tc.o)
			if got, want := b.String(), strings.Join(tc.want, "\n")+"\n"; got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestWriteErrors: the errors kept are sorted by input and offset, and the
// heading says how many there were and where the rest are.
func TestWriteErrors(t *testing.T) {
	t.Parallel()
	e := func(src string, off int64) *pipeline.ReadError {
		return &pipeline.ReadError{Source: src, Offset: off, Record: -1, Class: pipeline.ClassRecord, Err: errors.New("bad")}
	}
	var r runs.Result
	var b strings.Builder
	r.WriteErrors(&b, true)
	if b.Len() != 0 {
		t.Errorf("no error kept: wrote %q", b.String())
	}
	r.Summary.Diagnostics = []*pipeline.ReadError{e("b", 1), e("a", 9), e("a", 2)}
	for _, tc := range []struct {
		name    string
		errors  int64
		inTable bool
		head    string
	}{
		{"all_kept", 3, false, "robotstat: the 3 input errors:"},
		{"some_kept", 40, true, "robotstat: 3 of the 40 input errors (--errors N shows more); all of them are in the errors table:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r.Summary.Errors[pipeline.ClassRecord] = tc.errors
			b.Reset()
			r.WriteErrors(&b, tc.inTable)
			want := tc.head + "\n  " + e("a", 2).Error() + "\n  " + e("a", 9).Error() + "\n  " + e("b", 1).Error() + "\n"
			if b.String() != want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), want)
			}
		})
	}
}

// TestNothingRead: a run that read no capture says why, unless it is a
// shard or a rerun into a dataset that holds captures.
func TestNothingRead(t *testing.T) {
	t.Parallel()
	empty, full := t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(full, string(schema.Captures)), 0o755); err != nil {
		t.Fatal(err)
	}
	inputs := []string{"a", "b", "c", "d"}
	for _, tc := range []struct {
		name string
		r    runs.Result
		want string // a part of the message; "" for none
	}{
		{"captures", runs.Result{Captures: 1}, ""},
		{"shard", runs.Result{Shard: "0/2"}, ""},
		{"no_input", runs.Result{}, "analyze read nothing: a, b, c, ... hold no input to read"},
		{"inputs_without_captures", runs.Result{Files: 1}, "the 1 input read held no robots.txt capture"},
		{"skipped_into_empty", runs.Result{Dir: empty, Skipped: 2}, "the 2 inputs were read before into " + empty + ", which holds no capture"},
		{"skipped_into_full", runs.Result{Dir: full, Skipped: 2}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.r.NothingRead(inputs)
			if (got == "") != (tc.want == "") || !strings.Contains(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
