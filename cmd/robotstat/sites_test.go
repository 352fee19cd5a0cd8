package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/reduce"
	"github.com/robotstat/robotstat/reduce/reducetest"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/stats"
)

// sitesFixture holds the sites fixture's WARC files. The rules it shows are
// tested in package reduce (on the same fetches written as a dataset
// directly); the tests here are of the command line.
const sitesFixture = "../../testdata/sites"

// readTable reads every committed file of table t under root with
// parquet-go's reader (reducetest.ReadTable).
func readTable[T schema.Row](t *testing.T, root string, table schema.TableName) []T {
	t.Helper()
	return reducetest.ReadTable[T](t, root, table)
}

// fixtureSummary is the line robotstat sites prints of the fixture's crawl.
const fixtureSummary = "robotstat: sites of CC-MAIN-2025-05 (2025-01-27): 17 sites from 38 captures: 11 parsed, 3 unavailable, 1 unreachable, 2 unresolved\n"

// TestAnalyzeSitesFixture: analyze over the sites fixture's WARC files
// builds sites and site_bots at the end of the run, with the rows reduce
// gives the same fetches written as a dataset directly (what package
// reduce's tests check rule by rule), and the same files with 1 and 2
// workers.
func TestAnalyzeSitesFixture(t *testing.T) {
	t.Parallel()
	var outs []string
	for _, workers := range []string{"1", "2"} {
		out := filepath.Join(t.TempDir(), "out")
		_, errOut, code := run(t, "", "analyze", "--workers", workers, "--out", out, sitesFixture)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if !strings.Contains(errOut, fixtureSummary) {
			t.Errorf("--workers %s: stderr lacks %q:\n%s", workers, fixtureSummary, errOut)
		}
		outs = append(outs, out)
	}
	direct := filepath.Join(t.TempDir(), "direct")
	if err := reducetest.WriteDataset(direct, reducetest.Crawl, reducetest.Sites, stats.DefaultOptions()); err != nil {
		t.Fatal(err)
	}
	if _, err := reduce.Sites(context.Background(), reduce.Options{Dir: direct, Version: Version}); err != nil {
		t.Fatal(err)
	}
	byHost := func(rows []schema.SiteRow) []schema.SiteRow {
		slices.SortFunc(rows, func(x, y schema.SiteRow) int { return cmp.Compare(x.Host, y.Host) })
		return rows
	}
	byHostBot := func(rows []schema.SiteBotRow) []schema.SiteBotRow {
		slices.SortFunc(rows, func(x, y schema.SiteBotRow) int {
			return cmp.Or(cmp.Compare(x.Host, y.Host), cmp.Compare(x.Bot, y.Bot))
		})
		return rows
	}
	if got, want := byHost(readTable[schema.SiteRow](t, outs[0], schema.Sites)), byHost(readTable[schema.SiteRow](t, direct, schema.Sites)); len(want) != len(reducetest.Sites) || !reflect.DeepEqual(got, want) {
		t.Errorf("analyze's sites rows (%d) are not those of the fixture's fetches written directly (%d)", len(got), len(want))
	}
	if got, want := byHostBot(readTable[schema.SiteBotRow](t, outs[0], schema.SiteBots)), byHostBot(readTable[schema.SiteBotRow](t, direct, schema.SiteBots)); len(want) == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("analyze's site_bots rows (%d) are not those of the fixture's fetches written directly (%d)", len(got), len(want))
	}
	for _, table := range schema.ReduceTables() {
		fa, _ := schema.TableFiles(outs[0], table)
		fb, _ := schema.TableFiles(outs[1], table)
		if len(fa) != len(fb) {
			t.Errorf("%s: %d files with --workers 1, %d with 2", table, len(fa), len(fb))
			continue
		}
		for i := range fa {
			x, _ := os.ReadFile(fa[i].Path)
			y, _ := os.ReadFile(fb[i].Path)
			if !bytes.Equal(x, y) {
				t.Errorf("%s: %s differs between --workers 1 and 2", table, filepath.Base(fa[i].Path))
			}
		}
	}
}

// TestSitesCommand: robotstat sites' arguments, exit codes and what it
// prints, over datasets written directly.
func TestSitesCommand(t *testing.T) {
	t.Parallel()
	one := filepath.Join(t.TempDir(), "one")
	if err := reducetest.WriteDataset(one, reducetest.Crawl, reducetest.Sites, stats.DefaultOptions()); err != nil {
		t.Fatal(err)
	}
	two := filepath.Join(t.TempDir(), "two")
	for _, crawl := range []string{reducetest.Crawl, "CC-MAIN-2025-08"} {
		if err := reducetest.WriteDataset(two, crawl, reducetest.Sites, stats.DefaultOptions()); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	empty := t.TempDir()

	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string   // contained
		stderr []string // each contained
	}{
		{name: "help", args: []string{"sites", "-h"}, code: ExitOK, stdout: "Usage:\n  robotstat sites [flags] OUT_DIR"},
		{name: "no_folder", args: []string{"sites"}, code: ExitUsage, stderr: []string{"need one OUT_DIR", "got 0 arguments"}},
		{name: "two_folders", args: []string{"sites", one, two}, code: ExitUsage, stderr: []string{"got 2 arguments"}},
		{name: "a_file", args: []string{"sites", file}, code: ExitUsage, stderr: []string{"is not a folder"}},
		{name: "not_an_output", args: []string{"sites", empty}, code: ExitUsage, stderr: []string{"is not a robotstat output: it has no captures folder"}},
		{name: "one_crawl", args: []string{"sites", one}, code: ExitOK,
			stderr: []string{fixtureSummary, "robotstat: site_history: not built (one crawl; it is built once the dataset holds two)\n"}},
		{name: "zero_workers", args: []string{"sites", "--workers", "0", one}, code: ExitUsage, stderr: []string{"--workers must be at least 1"}},
		{name: "seven_workers", args: []string{"sites", "--workers", "7", one}, code: ExitOK, stderr: []string{fixtureSummary}},
		{name: "two_crawls", args: []string{"sites", two}, code: ExitOK,
			stderr: []string{fixtureSummary, "robotstat: sites of CC-MAIN-2025-08 (2025-02-17): 17 sites from 38 captures",
				"robotstat: site_history: 17 hosts over 2 crawls, 11 of them parsed sites in every crawl (the panel of robotstat report --panel)\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := run(t, "", tt.args...)
			if code != tt.code || !strings.Contains(stdout, tt.stdout) {
				t.Errorf("exit %d, want %d; stdout:\n%s", code, tt.code, stdout)
			}
			for _, s := range tt.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
		})
	}

	t.Run("json", func(t *testing.T) {
		stdout, stderr, code := run(t, "", "sites", "--json", two)
		if code != ExitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var sum reduce.Summary
		if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
			t.Fatalf("stdout is not a summary: %v\n%s", err, stdout)
		}
		if len(sum.Crawls) != 2 || sum.Crawls[0].Sites != 17 || sum.Crawls[1].Date != "2025-02-17" || sum.Captures != 76 ||
			sum.History == nil || sum.History.Hosts != 17 || sum.History.Rows != int64(17*stats.DefaultCatalog().Len()) {
			t.Errorf("summary %+v, history %+v", sum, sum.History)
		}
		if !strings.Contains(stderr, fixtureSummary) {
			t.Errorf("stderr lacks the summary lines:\n%s", stderr)
		}
	})

	t.Run("interrupted", func(t *testing.T) {
		before := readTable[schema.SiteRow](t, one, schema.Sites)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var out, errb bytes.Buffer
		m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, retryDelays: testRetryDelays}
		err := m.Run(ctx, []string{"sites", one})
		if code := ExitCode(err); code != ExitInterrupted || err == nil || !strings.Contains(err.Error(), "interrupted; the previous sites tables are kept") {
			t.Errorf("exit %d: %v", code, err)
		}
		if after := readTable[schema.SiteRow](t, one, schema.Sites); !reflect.DeepEqual(before, after) {
			t.Errorf("an interrupted build changed the sites rows")
		}
	})
}
