package pipeline

import (
	"bytes"
	"testing"

	"github.com/robotstat/robotstat/warc"

	"github.com/robotstat/robotstat/internal/testkit"
)

// TestStreamAllocs checks that reading gzip member by member, the WARC
// reader on top as a decoder runs it, does not allocate per member once
// the reader is warm.
func TestStreamAllocs(t *testing.T) {
	if testkit.Race {
		t.Skip("the race detector allocates")
	}
	var recs [][]byte
	for range 50 {
		recs = append(recs, robotsResp("a.example", robotsBody))
	}
	data := gzipMembers(recs...)
	var rd bytes.Reader
	var s stream
	s.report = func(int64, error, []byte) { t.Error("unexpected error") }
	w := warc.NewReader(&s)
	w.Locate = s.offsetAt
	w.Boundary = s.boundaryAfter
	buf := make([]byte, 0, 4096)
	run := func() {
		rd.Reset(data)
		s.reset(&rd, nil)
		w.Reset(&s)
		for w.Next() {
			buf, _, _ = w.ReadBlock(buf[:0], 1<<20)
		}
	}
	run()
	if allocs := testing.AllocsPerRun(10, run); allocs > 0 {
		t.Fatalf("%v allocations per 50 gzip members", allocs)
	}
}
