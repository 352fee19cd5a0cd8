package runs_test

import (
	"context"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/reduce"
	"github.com/robotstat/robotstat/runs"
	"github.com/robotstat/robotstat/schema"
)

// TestAnalyzeResume: a rerun with the same options skips every unit and
// rewrites nothing; another option reads every unit again and replaces
// its rows (never a second copy), saying which option differed; Redo
// reads them all again.
func TestAnalyzeResume(t *testing.T) {
	inputs := fixtures(t)
	dir := filepath.Join(t.TempDir(), "out")
	ctx := context.Background()
	r, err := runs.Analyze(ctx, config(dir), inputs)
	if err != nil {
		t.Fatal(err)
	}
	if r.Committed != 4 || r.Skipped != 0 || r.Captures != 40 || r.Rows["captures"] != 40 || len(r.Failed) != 0 {
		t.Fatalf("first run: %+v", r)
	}
	if n := r.Outcomes["parsed"] + r.Outcomes["unavailable"] + r.Outcomes["unreachable"] + r.Outcomes["redirect"]; n != 40 || len(r.Outcomes) != 4 {
		t.Errorf("outcomes %v, want the 40 captures over the four outcomes", r.Outcomes)
	}
	want, before := tables(t, dir), files(t, dir)

	r, err = runs.Analyze(ctx, config(dir), inputs)
	if err != nil {
		t.Fatal(err)
	}
	if r.Committed != 0 || r.Skipped != 4 || r.Captures != 0 || len(r.Replaced) != 0 {
		t.Errorf("rerun: committed %d, skipped %d, captures %d, replaced %v; want all 4 skipped", r.Committed, r.Skipped, r.Captures, r.Replaced)
	}
	after := files(t, dir)
	delete(before, "_robotstat/lock") // the lock's file records its holder
	delete(after, "_robotstat/lock")
	if !maps.Equal(before, after) {
		t.Errorf("a rerun with nothing to do changed the files:\n%v\n%v", before, after)
	}

	other := config(dir)
	other.Stats.ParseLimit = 600000
	r, err = runs.Analyze(ctx, other, inputs)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{`parse_limit "512000", now "600000"`: 4}; r.Committed != 4 || !maps.Equal(r.Replaced, want) {
		t.Errorf("other option: committed %d, replaced %v; want 4 and %v", r.Committed, r.Replaced, want)
	}
	sameTables(t, "after another parse limit", tables(t, dir), want)
	if n := len(records(t, dir)); n != 4 {
		t.Errorf("%d records, want one per input", n)
	}

	other.Redo = true
	if r, err = runs.Analyze(ctx, other, inputs); err != nil || r.Committed != 4 || r.Skipped != 0 {
		t.Errorf("redo: %v, committed %d, skipped %d", err, r.Committed, r.Skipped)
	}
	sameTables(t, "after a redo", tables(t, dir), want)
}

// TestAnalyzeShards: the shards of a run, run at once into one folder
// (the lock shared), write the rows of the run unsharded; the shard is not
// an option, so an unsharded rerun skips every unit.
func TestAnalyzeShards(t *testing.T) {
	inputs := fixtures(t)
	ctx := context.Background()
	whole := filepath.Join(t.TempDir(), "whole")
	if _, err := runs.Analyze(ctx, config(whole), inputs); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "sharded")
	const n = 3
	var wg sync.WaitGroup
	results := make([]*runs.Result, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			cfg := config(dir)
			cfg.Pipeline.Shard = pipeline.Shard{Index: i, Count: n}
			results[i], errs[i] = runs.Analyze(ctx, cfg, inputs)
		})
	}
	wg.Wait()
	committed := 0
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("shard %d/%d: %v", i, n, errs[i])
		}
		if results[i].Shard != strings.Join([]string{itoa(i), itoa(n)}, "/") {
			t.Errorf("shard %d: Result.Shard %q", i, results[i].Shard)
		}
		committed += results[i].Committed
	}
	if committed != 4 {
		t.Errorf("the shards committed %d units, want 4 between them", committed)
	}
	sameTables(t, "sharded", tables(t, dir), tables(t, whole))
	for in, rec := range records(t, dir) {
		var sum runs.UnitSummary
		if err := jsonUnmarshal(rec.Summary, &sum); err != nil || !strings.HasSuffix(sum.Shard, "/3") || sum.Captures != 10 {
			t.Errorf("%s: summary %+v (%v), want its shard of 3 and 10 captures", in, sum, err)
		}
	}
	r, err := runs.Analyze(ctx, config(dir), inputs)
	if err != nil || r.Skipped != 4 || r.Committed != 0 {
		t.Errorf("unsharded rerun: %v, skipped %d, committed %d; want all 4 skipped", err, r.Skipped, r.Committed)
	}
}

// TestAnalyzeFailedUnit: an input that cannot be read fails its unit, not
// the run: its record says failed, its errors row says why under the run's
// crawl (it has no captures), ReadStatus says failed and, for an input
// asked about without a record, left; once it can be read, a rerun reads
// it alone. Strict stops the run instead.
func TestAnalyzeFailedUnit(t *testing.T) {
	inputs := fixtures(t)
	var gone sync.Map // names answered 404
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := filepath.Base(r.URL.Path)
		if _, ok := gone.Load(name); ok {
			http.NotFound(w, r)
			return
		}
		http.ServeFile(w, r, filepath.Join(filepath.Dir(inputs[0]), name))
	}))
	t.Cleanup(srv.Close)
	urls := []string{srv.URL + "/robotstxt/" + filepath.Base(inputs[0]), srv.URL + "/robotstxt/" + filepath.Base(inputs[1])}
	gone.Store(filepath.Base(inputs[1]), true)

	dir := filepath.Join(t.TempDir(), "out")
	cfg := config(dir)
	cfg.Pipeline.Crawl = "CC-TEST"
	cfg.Pipeline.Retry.MaxTries = 1
	cfg.Stats.Tables = append(schema.DefaultTables(), schema.Errors)
	r, err := runs.Analyze(context.Background(), cfg, urls)
	if err != nil {
		t.Fatal(err)
	}
	if r.Committed != 2 || len(r.Failed) != 1 || r.Failed[0].Input != urls[1] || !strings.Contains(r.Failed[0].Error, "404") {
		t.Fatalf("committed %d, failed %+v; want 2 committed, %s failed with its 404", r.Committed, r.Failed, urls[1])
	}
	recs := records(t, dir)
	if recs[urls[0]].State != schema.RecordDone || recs[urls[1]].State != schema.RecordFailed {
		t.Errorf("records: %s %s, want done and failed", recs[urls[0]].State, recs[urls[1]].State)
	}
	errs := rowsJSON[schema.ErrorRow](t, dir, schema.Errors)
	if len(errs) != 1 || !strings.HasPrefix(errs[0], "CC-TEST\t") || !strings.Contains(errs[0], `"Class":"input"`) || !strings.Contains(errs[0], "404") {
		t.Errorf("errors rows %q, want the failure's, filed under CC-TEST", errs)
	}

	never := srv.URL + "/robotstxt/never.warc.gz"
	st, err := runs.ReadStatus(dir, []pipeline.Unit{{Name: urls[0]}, {Name: urls[1]}, {Name: never}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, in := range st.Inputs {
		got[in.Input] = in.State
	}
	if want := map[string]string{urls[0]: schema.RecordDone, urls[1]: schema.RecordFailed, never: runs.StateLeft}; !maps.Equal(got, want) {
		t.Errorf("status %v, want %v", got, want)
	}
	if st.Sites != "not built" {
		t.Errorf("status: sites %q", st.Sites)
	}

	gone.Clear()
	if r, err = runs.Analyze(context.Background(), cfg, urls); err != nil || r.Committed != 1 || r.Skipped != 1 || len(r.Failed) != 0 {
		t.Errorf("rerun: %v, committed %d, skipped %d, failed %v; want the failed input alone read", err, r.Committed, r.Skipped, r.Failed)
	}
	if errs := rowsJSON[schema.ErrorRow](t, dir, schema.Errors); len(errs) != 0 {
		t.Errorf("the failure's row outlived the rerun that read the input: %q", errs)
	}

	gone.Store(filepath.Base(inputs[1]), true)
	strict := cfg
	strict.Dir = filepath.Join(t.TempDir(), "strict")
	strict.Pipeline.Strict = true
	if r, err = runs.Analyze(context.Background(), strict, urls[1:]); err == nil || r.Committed != 0 {
		t.Errorf("strict: %v, committed %d; want the run stopped, nothing committed", err, r.Committed)
	}
	if _, err := os.Stat(strict.Dir); !os.IsNotExist(err) {
		t.Errorf("a strict run that failed left its folder: %v", err)
	}
}

// TestAnalyzeInterrupted: a run cancelled while it reads one input keeps
// the inputs it committed and leaves nothing of the one in flight; a rerun
// skips the first.
func TestAnalyzeInterrupted(t *testing.T) {
	inputs := fixtures(t)
	dir := filepath.Join(t.TempDir(), "out")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := config(dir)
	// stdin holds one worker until the two files are committed by the
	// other, then the run is cancelled.
	cfg.Pipeline.Stdin = &blockingReader{ctx: ctx, ready: func() bool {
		ix, err := schema.ReadIndex(dir)
		if err == nil && len(ix.Runs) >= 2 {
			cancel()
			return true
		}
		return false
	}}
	r, err := runs.Analyze(ctx, cfg, append(inputs[:2:2], "-"))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want the context's", err)
	}
	if r.Committed != 2 {
		t.Errorf("committed %d, want the 2 inputs before stdin", r.Committed)
	}
	if n := len(records(t, dir)); n != 2 {
		t.Errorf("%d records, want 2", n)
	}
	left, err := schema.FindLeftovers(dir)
	if err != nil || left.Temps+left.Visible() != 0 {
		t.Errorf("leftovers %+v (%v), want none", left, err)
	}
	r, err = runs.Analyze(context.Background(), config(dir), inputs)
	if err != nil || r.Skipped != 2 || r.Committed != 2 {
		t.Errorf("rerun: %v, skipped %d, committed %d", err, r.Skipped, r.Committed)
	}
}

// blockingReader is a stdin that gives nothing: its first Read waits,
// asking ready every few milliseconds (for 10 s at most), then for ctx.
type blockingReader struct {
	ctx   context.Context
	ready func() bool
}

func (b *blockingReader) Read([]byte) (int, error) {
	for deadline := time.Now().Add(10 * time.Second); !b.ready(); {
		if time.Now().After(deadline) {
			return 0, errors.New("test: the files before stdin were not committed in 10 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	<-b.ctx.Done()
	return 0, io.ErrUnexpectedEOF
}

// TestAnalyzeCompacted: units whose rows robotstat compact merged are not
// read again with other options or with Redo (CompactedError), and with
// the same options they are skipped, also a crawl's files read by name
// (whose options hold their crawl).
func TestAnalyzeCompacted(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "out")
	cfg := config(dir)
	cfg.Pipeline.CCBase = "testdata"
	r, err := runs.Analyze(ctx, cfg, []string{crawl})
	if err != nil || r.Committed != 4 {
		t.Fatalf("%v, committed %d", err, r.Committed)
	}
	if _, err := schema.Compact(ctx, schema.CompactOptions{Dir: dir, Version: "test"}); err != nil {
		t.Fatal(err)
	}
	if r, err = runs.Analyze(ctx, cfg, []string{crawl}); err != nil || r.Skipped != 4 {
		t.Errorf("same options after compact: %v, skipped %d; want all 4 skipped", err, r.Skipped)
	}
	other := cfg
	other.Stats.TooManyRequestsUnreachable = true
	redo := cfg
	redo.Redo = true
	for name, c := range map[string]runs.Config{"other_options": other, "redo": redo} {
		t.Run(name, func(t *testing.T) {
			_, err := runs.Analyze(ctx, c, []string{crawl})
			var ce *runs.CompactedError
			if !errors.As(err, &ce) || len(ce.Inputs) != 4 || ce.Redo != c.Redo || (!c.Redo && !strings.HasPrefix(ce.Diff, "429_unreachable")) {
				t.Errorf("err %v (%+v), want a CompactedError of the 4 inputs", err, ce)
			}
			why := map[bool]string{true: "with --redo", false: "with other options (429_unreachable"}[c.Redo]
			if msg := err.Error(); !strings.HasPrefix(msg, "4 inputs in "+ce.Dir+" would be read again "+why) || !strings.Contains(msg, "robotstat compact merged their rows") {
				t.Errorf("message %q", msg)
			}
		})
	}
}

// TestErrorRows: a unit's data errors become rows in order, located as far
// as they are, then its failure as a row of class input.
func TestErrorRows(t *testing.T) {
	off, rec := int64(120), int64(3)
	r := pipeline.UnitResult{
		Unit: pipeline.Unit{Name: "in.warc.gz"},
		Err:  errors.New("cut"),
		Errors: []*pipeline.ReadError{
			{Source: "in.warc.gz", Path: "a/in.warc.gz", Offset: off, Record: rec, RecordID: "<urn:uuid:1>", Class: pipeline.ClassRecord, Err: errors.New("bad")},
			{Source: "index.parquet", Offset: -1, Record: -1, Class: pipeline.ClassContainer},
		},
	}
	rows := runs.ErrorRows(r, "CC-X")
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3", len(rows))
	}
	if e := rows[0]; e.Crawl != "CC-X" || e.Source != "a/in.warc.gz" || e.Offset == nil || *e.Offset != off || e.Record == nil || *e.Record != rec ||
		e.RecordID != schema.TrimRecordID("<urn:uuid:1>") || e.Class != "record" || e.Message != "bad" {
		t.Errorf("row 0: %+v", e)
	}
	if e := rows[1]; e.Source != "index.parquet" || e.Offset != nil || e.Record != nil || e.Message != "" {
		t.Errorf("row 1 (a whole file): %+v", e)
	}
	if e := rows[2]; e.Class != "input" || e.Source != "in.warc.gz" || e.Message != "cut" || e.Input != "in.warc.gz" {
		t.Errorf("row 2 (the failure): %+v", e)
	}
}

// TestAnalyzeRepairsDamaged (issue 26.3): a plain rerun reads again a unit
// one of whose committed files is missing, emptied or cut, and only that
// one, and gives back the rows of the first run; status no longer calls
// anything damaged. Before, the rerun skipped it as done and the readers
// refused the table until --redo.
func TestAnalyzeRepairsDamaged(t *testing.T) {
	inputs := fixtures(t)
	ctx := context.Background()
	for _, damage := range []struct {
		name string
		do   func(path string) error
	}{
		{"deleted", os.Remove},
		{"emptied", func(p string) error { return os.Truncate(p, 0) }},
		{"cut", func(p string) error {
			st, err := os.Stat(p)
			if err != nil {
				return err
			}
			return os.Truncate(p, st.Size()-1)
		}},
	} {
		t.Run(damage.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			if _, err := runs.Analyze(ctx, config(dir), inputs); err != nil {
				t.Fatal(err)
			}
			want := tables(t, dir)
			parts, err := filepath.Glob(filepath.Join(dir, "agents", "*", "*.parquet"))
			if err != nil || len(parts) != 4 {
				t.Fatalf("agents files: %v %v", parts, err)
			}
			if err := damage.do(parts[1]); err != nil {
				t.Fatal(err)
			}
			st, err := runs.ReadStatusChecked(dir, nil, false)
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Damaged) != 1 {
				t.Fatalf("status names %d damaged files, want 1: %+v", len(st.Damaged), st.Damaged)
			}

			r, err := runs.Analyze(ctx, config(dir), inputs)
			if err != nil {
				t.Fatal(err)
			}
			if r.Repaired != 1 || r.Committed != 1 || r.Skipped != 3 {
				t.Errorf("rerun: repaired %d, committed %d, skipped %d; want 1, 1, 3", r.Repaired, r.Committed, r.Skipped)
			}
			sameTables(t, "after the repair", tables(t, dir), want)
			if st, err = runs.ReadStatusChecked(dir, nil, false); err != nil || len(st.Damaged) != 0 {
				t.Errorf("status after the repair: %v, damaged %+v", err, st.Damaged)
			}
		})
	}
}

// TestSitesUpToDateNoticesDamage: the sites tables are up to date only
// while their own files are there as committed; a deleted site_bots file
// makes them out of date (before, status said "sites up to date" and
// report read the rest).
func TestSitesUpToDateNoticesDamage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	ctx := context.Background()
	if _, err := runs.Analyze(ctx, config(dir), fixtures(t)); err != nil {
		t.Fatal(err)
	}
	if runs.SitesUpToDate(dir) {
		t.Fatal("up to date before robotstat sites ran")
	}
	if _, err := reduce.Sites(ctx, reduce.Options{Dir: dir, Version: "test"}); err != nil {
		t.Fatal(err)
	}
	if !runs.SitesUpToDate(dir) {
		t.Fatal("not up to date right after robotstat sites")
	}
	parts, err := filepath.Glob(filepath.Join(dir, "site_bots", "*", "*.parquet"))
	if err != nil || len(parts) == 0 {
		t.Fatalf("site_bots files: %v %v", parts, err)
	}
	if err := os.Remove(parts[0]); err != nil {
		t.Fatal(err)
	}
	if runs.SitesUpToDate(dir) {
		t.Error("up to date with a site_bots file deleted")
	}
}
