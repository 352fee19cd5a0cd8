package pipeline

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/robotstat/robotstat/record"
)

// writeWARC writes n robots.txt responses of hosts prefix0..prefix(n-1) to
// path as a gzipped WARC.
func writeWARC(t *testing.T, path, prefix string, n int) {
	t.Helper()
	var recs [][]byte
	for i := range n {
		recs = append(recs, robotsResp(prefix+strconv.Itoa(i)+".example", robotsBody))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, gzipMembers(recs...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// unitLog records what a run tells its consumer, its BatchDone and its
// UnitDone, per unit, and checks their order: no capture or BatchDone of
// a unit after its UnitDone, one UnitDone per unit.
type unitLog struct {
	t        *testing.T
	mu       sync.Mutex
	byWorker map[int]map[string]int // captures consumed since the worker's last BatchDone, by host prefix
	handed   map[string]int64       // captures handed on in BatchDone, per unit name
	done     map[string]UnitResult
}

func newUnitLog(t *testing.T) *unitLog {
	return &unitLog{t: t, byWorker: map[int]map[string]int{}, handed: map[string]int64{}, done: map[string]UnitResult{}}
}

func (l *unitLog) config(cfg Config) Config {
	cfg.BatchDone = func(w int, u Unit) error {
		l.mu.Lock()
		defer l.mu.Unlock()
		if _, ok := l.done[u.Name]; ok {
			l.t.Errorf("BatchDone of %s after its UnitDone", u.Name)
		}
		for _, n := range l.byWorker[w] {
			l.handed[u.Name] += int64(n)
		}
		clear(l.byWorker[w])
		return nil
	}
	cfg.UnitDone = func(r UnitResult) error {
		l.mu.Lock()
		defer l.mu.Unlock()
		if _, ok := l.done[r.Name]; ok {
			l.t.Errorf("two UnitDone for %s", r.Name)
		}
		l.done[r.Name] = r
		return nil
	}
	return cfg
}

func (l *unitLog) consume(w int, c *record.Capture) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.byWorker[w] == nil {
		l.byWorker[w] = map[string]int{}
	}
	l.byWorker[w][c.Source]++
	return nil
}

// TestUnits: which inputs form a unit, and that UnitDone comes once per
// unit, after every capture and every BatchDone of it, with its counts,
// whatever the number of workers.
func TestUnits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeWARC(t, filepath.Join(dir, "a.warc.gz"), "a", 100)
	writeWARC(t, filepath.Join(dir, "warcs", "b.warc.gz"), "b", 70)
	writeWARC(t, filepath.Join(dir, "warcs", "c.warc.gz"), "c", 1)
	// a mirror: one robots.txt per host, one unit for the folder
	os.MkdirAll(filepath.Join(dir, "mirror"), 0o755)
	for _, h := range []string{"x.example", "y.example", "z.example"} {
		os.WriteFile(filepath.Join(dir, "mirror", h), []byte(robotsBody), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "list.paths"), []byte("a.warc.gz\nwarcs/c.warc.gz\n"), 0o644)
	inputs := []string{filepath.Join(dir, "a.warc.gz"), filepath.Join(dir, "warcs"), filepath.Join(dir, "mirror"), filepath.Join(dir, "list.paths")}

	r := &runner{cfg: DefaultConfig()}
	list, err := r.expand(context.Background(), inputs)
	if err != nil {
		t.Fatal(err)
	}
	var units []Unit
	for _, in := range list {
		if len(units) == 0 || units[len(units)-1] != in.unit {
			units = append(units, in.unit)
		}
	}
	// The manifest's two lines name files already listed: they are
	// dropped, not read twice.
	want := []Unit{
		{Index: 0, Name: inputs[0]},
		{Index: 1, Name: filepath.Join(dir, "warcs", "b.warc.gz")},
		{Index: 2, Name: filepath.Join(dir, "warcs", "c.warc.gz")},
		{Index: 3, Name: inputs[2]},
	}
	if !slices.Equal(units, want) {
		t.Fatalf("units\n%v\nwant\n%v", units, want)
	}
	if n, _ := r.duplicates.load(); n != 2 {
		t.Errorf("%d duplicates, want 2", n)
	}
	wantCaptures := []int64{100, 70, 1, 3}

	for _, workers := range []int{1, 2, 5} {
		t.Run("workers="+strconv.Itoa(workers), func(t *testing.T) {
			l := newUnitLog(t)
			cfg := l.config(Config{Workers: workers})
			sum, err := Run(context.Background(), cfg, inputs, l.consume)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Captures != 174 || sum.Duplicates != 2 {
				t.Errorf("%d captures", sum.Captures)
			}
			wantByName := map[string]int64{}
			for i, u := range want {
				wantByName[u.Name] = wantCaptures[i]
			}
			if len(l.done) != len(wantByName) {
				t.Errorf("%d units done, want %d", len(l.done), len(wantByName))
			}
			for name, n := range wantByName {
				r, ok := l.done[name]
				if !ok {
					t.Errorf("no UnitDone for %s", name)
					continue
				}
				if r.Err != nil || r.DataErrors != 0 {
					t.Errorf("%s: %+v", name, r)
				}
				if l.handed[name] != n {
					t.Errorf("%s: %d captures handed on in BatchDone, want %d", name, l.handed[name], n)
				}
			}
		})
	}
}

// TestUnitDoneCounts: each unit's own counts, for units of different
// names.
func TestUnitDoneCounts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var inputs []string
	for i := range 6 {
		p := filepath.Join(dir, fmt.Sprintf("%d.warc.gz", i))
		writeWARC(t, p, "u"+strconv.Itoa(i)+"h", 10*i+1)
		inputs = append(inputs, p)
	}
	var mu sync.Mutex
	got := map[string]int64{}
	cfg := Config{Workers: 3, UnitDone: func(r UnitResult) error {
		mu.Lock()
		got[r.Name] = r.Captures
		mu.Unlock()
		return nil
	}}
	if _, err := Run(context.Background(), cfg, inputs, func(int, *record.Capture) error { return nil }); err != nil {
		t.Fatal(err)
	}
	for i, p := range inputs {
		if got[p] != int64(10*i+1) {
			t.Errorf("%s: %d captures, want %d", p, got[p], 10*i+1)
		}
	}
}

// TestSkip: a unit Skip names is not read, nor reported.
func TestSkip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var inputs []string
	for i := range 4 {
		p := filepath.Join(dir, fmt.Sprintf("%d.warc.gz", i))
		writeWARC(t, p, "s"+strconv.Itoa(i)+"h", 5)
		inputs = append(inputs, p)
	}
	l := newUnitLog(t)
	cfg := l.config(Config{Workers: 2, Skip: func(u Unit) bool { return u.Index%2 == 1 }})
	var mu sync.Mutex
	var sources []string
	sum, err := Run(context.Background(), cfg, inputs, func(w int, c *record.Capture) error {
		mu.Lock()
		sources = append(sources, c.Source)
		mu.Unlock()
		return l.consume(w, c)
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Skipped != 2 || sum.Captures != 10 || sum.Files != 2 {
		t.Errorf("summary %+v", sum)
	}
	for _, s := range sources {
		if s == "1.warc.gz" || s == "3.warc.gz" {
			t.Errorf("a capture of skipped %s", s)
		}
	}
	if _, ok := l.done[inputs[1]]; ok || len(l.done) != 2 {
		t.Errorf("units done: %v", l.done)
	}
}

// TestShardByUnit: a folder's host files are one unit and go to one
// shard; every unit goes to exactly one shard.
func TestShardByUnit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	inputs := []string{}
	for i := range 5 {
		p := filepath.Join(dir, fmt.Sprintf("w%d.warc.gz", i))
		writeWARC(t, p, "w"+strconv.Itoa(i)+"h", 3)
		inputs = append(inputs, p)
	}
	os.MkdirAll(filepath.Join(dir, "mirror"), 0o755)
	for _, h := range []string{"a.example", "b.example", "c.example", "d.example"} {
		os.WriteFile(filepath.Join(dir, "mirror", h), []byte(robotsBody), 0o644)
	}
	inputs = append(inputs, filepath.Join(dir, "mirror"))
	seen := map[string]int{}
	for i := range 3 {
		var mu sync.Mutex
		hosts := map[string]bool{}
		cfg := Config{Workers: 2, Shard: Shard{i, 3}}
		_, err := Run(context.Background(), cfg, inputs, func(w int, c *record.Capture) error {
			mu.Lock()
			hosts[filepath.Base(c.Source)] = true
			seen[c.URL]++
			mu.Unlock()
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(hosts) - 5; hosts["a.example"] != (i == 5%3) || hosts["a.example"] && !hosts["d.example"] {
			t.Errorf("shard %d read %d of the mirror's hosts: the mirror is unit 5, all of it for shard 2", i, n)
		}
	}
	if len(seen) != 5*3+4 {
		t.Errorf("%d distinct captures over the shards, want %d", len(seen), 5*3+4)
	}
	for u, n := range seen {
		if n != 1 {
			t.Errorf("%s read %d times", u, n)
		}
	}
}

// TestKeepGoing: with KeepGoing an input that cannot be read (a download
// the server keeps refusing, a manifest line naming no file) fails its
// unit, UnitDone says why, and every other input is read. Without it the
// same run fails.
func TestKeepGoing(t *testing.T) {
	t.Parallel()
	var recs [][]byte
	for i := range 20 {
		recs = append(recs, robotsResp("k"+strconv.Itoa(i)+".example", robotsBody))
	}
	fs := &faultServer{data: gzipMembers(recs...)}
	srv := httptest.NewServer(fs)
	defer srv.Close()
	dir := t.TempDir()
	writeWARC(t, filepath.Join(dir, "local.warc.gz"), "l", 7)
	manifest := filepath.Join(dir, "list.paths")
	os.WriteFile(manifest, []byte("local.warc.gz\nmissing.warc.gz\n"), 0o644)
	inputs := []string{srv.URL + "/ok.warc.gz", srv.URL + "/404.warc.gz", srv.URL + "/always503.warc.gz", manifest}
	noSleep := func(ctx context.Context, d time.Duration) error { return ctx.Err() }

	l := newUnitLog(t)
	cfg := l.config(Config{Workers: 2, KeepGoing: true, Retry: RetryPolicy{MaxTries: 3, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}, testSleep: noSleep})
	sum, err := Run(context.Background(), cfg, inputs, l.consume)
	if err != nil {
		t.Fatalf("KeepGoing run failed: %v", err)
	}
	if sum.Captures != 27 || sum.FailedUnits != 3 {
		t.Errorf("summary: %d captures, %d failed units; want 27 and 3", sum.Captures, sum.FailedUnits)
	}
	failed := map[string]bool{srv.URL + "/404.warc.gz": true, srv.URL + "/always503.warc.gz": true, filepath.Join(dir, "missing.warc.gz"): true}
	for name, r := range l.done {
		if failed[name] != (r.Err != nil) {
			t.Errorf("%s: err %v", name, r.Err)
		}
	}
	if len(l.done) != 5 {
		t.Errorf("%d units reported, want 5", len(l.done))
	}
	if r := l.done[srv.URL+"/ok.warc.gz"]; r.Captures != 20 {
		t.Errorf("ok: %+v", r)
	}

	cfg.KeepGoing = false
	cfg.BatchDone, cfg.UnitDone = nil, nil // another run: not l's
	if _, err := Run(context.Background(), cfg, inputs, func(int, *record.Capture) error { return nil }); err == nil {
		t.Error("without KeepGoing a refused download must fail the run")
	}
}

// TestUnitDoneError: an error from UnitDone ends the run, as the
// consumer's does.
func TestUnitDoneError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "a.warc.gz")
	writeWARC(t, p, "e", 3)
	boom := errors.New("disk full")
	cfg := Config{Workers: 2, UnitDone: func(UnitResult) error { return boom }}
	if _, err := Run(context.Background(), cfg, []string{p, p}, func(int, *record.Capture) error { return nil }); !errors.Is(err, boom) {
		t.Fatalf("err %v, want %v", err, boom)
	}
}
