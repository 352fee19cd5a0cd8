package schema_test

import (
	"strings"
	"testing"

	"github.com/robotstat/robotstat/schema"
)

// TestCompactSummaryText: a line per table and one for the compaction,
// with the runs left as they are by reason (sorted) and the caller's name
// for the ineligible ones; a compaction that merged nothing says so.
func TestCompactSummaryText(t *testing.T) {
	t.Parallel()
	sum := schema.CompactSummary{RunID: "compact-1", Runs: 3, Seconds: 1.25, Leftovers: 1, Warnings: []string{"w"},
		Left: map[string]int{schema.LeftIneligible: 1, schema.LeftFailed: 2},
		Tables: []schema.CompactTable{
			{Table: schema.Captures, FilesBefore: 3, FilesAfter: 1, BytesBefore: 3 << 20, BytesAfter: 2 << 20, Rows: 30},
			{Table: schema.Groups, FilesBefore: 3, FilesAfter: 1, BytesBefore: 2048, BytesAfter: 1536, Rows: 12},
		}}
	var b strings.Builder
	sum.WriteText(&b, "out", "sites")
	want := "robotstat: compact: w\n" +
		"robotstat: compact: removed 1 file a killed compaction left\n" +
		"robotstat: compact: captures          3 files ->    1, 3.0 MiB -> 2.0 MiB, 30 rows\n" +
		"robotstat: compact: groups            3 files ->    1, 2.0 KiB -> 1.5 KiB, 12 rows\n" +
		"robotstat: compact: 3 inputs, 6 files (3.0 MiB) -> 2 files (2.0 MiB) in 1.2s, as compact-1; runs left as they are: 2 failed, 1 sites\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	(&schema.CompactSummary{}).WriteText(&b, "out", "sites")
	if want := "robotstat: compact: nothing to merge in out\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
