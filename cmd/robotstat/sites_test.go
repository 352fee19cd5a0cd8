package main

import (
	"bytes"
	"cmp"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/robotstat/robotstat/reduce"
	"github.com/robotstat/robotstat/reduce/reducetest"
	"github.com/robotstat/robotstat/schema"
)

const sitesFixture = "../../reduce/testdata/sites"

// readTable reads every committed file of table t under root with
// parquet-go's reader.
func readTable[T schema.Row](t *testing.T, root string, table schema.TableName) []T {
	t.Helper()
	files, err := schema.TableFiles(root, table)
	if err != nil {
		t.Fatal(err)
	}
	var rows []T
	for _, f := range files {
		r, err := parquet.ReadFile[T](f.Path)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r...)
	}
	return rows
}

// TestSitesFixture runs analyze over the sites fixture (one host per rule
// of the resolution, split over two files) and checks every sites row and
// GPTBot's site_bots verdict against what reducetest says, with 1 and 2
// workers; the two runs' sites and site_bots files must be identical.
func TestSitesFixture(t *testing.T) {
	var outs []string
	for _, workers := range []string{"1", "2"} {
		out := filepath.Join(t.TempDir(), "out")
		if _, errOut, code := run(t, "", "analyze", "--quiet", "--workers", workers, "--out", out, sitesFixture); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		outs = append(outs, out)
		sites := map[string]schema.SiteRow{}
		for _, r := range readTable[schema.SiteRow](t, out, schema.Sites) {
			if _, dup := sites[r.Host]; dup {
				t.Errorf("two sites rows for %s", r.Host)
			}
			sites[r.Host] = r
		}
		gpt := map[string]string{}
		perSite := map[string]int{}
		for _, r := range readTable[schema.SiteBotRow](t, out, schema.SiteBots) {
			perSite[r.Host]++
			if r.Bot == "GPTBot" {
				gpt[r.Host] = r.Verdict
			}
		}
		if len(sites) != len(reducetest.Sites) {
			t.Errorf("%d sites, want %d", len(sites), len(reducetest.Sites))
		}
		for _, want := range reducetest.Sites {
			t.Run(workers+"/"+want.Host, func(t *testing.T) {
				got, ok := sites[want.Host]
				if !ok {
					t.Fatalf("no sites row (%s)", want.Rule)
				}
				hops := -1
				if got.RedirectHops != nil {
					hops = int(*got.RedirectHops)
				}
				type view struct {
					Outcome, URL, FinalURL, Reason, GPTBot string
					Hops, Candidates                       int
				}
				g := view{got.Outcome, got.URL, got.FinalURL, got.Reason, gpt[want.Host], hops, int(got.Candidates)}
				w := view{want.Outcome, want.URL, want.FinalURL, want.Reason, want.GPTBot, want.Hops, want.Candidates}
				if g != w {
					t.Errorf("%s:\n got %+v\nwant %+v", want.Rule, g, w)
				}
				if got.Crawl != reducetest.Crawl || got.RegisteredDomain == "" {
					t.Errorf("crawl %q registered domain %q", got.Crawl, got.RegisteredDomain)
				}
				if (got.CaptureID == "") != (want.FinalURL == "") {
					t.Errorf("capture_id %q with final_url %q", got.CaptureID, want.FinalURL)
				}
				if perSite[want.Host] != len(readTable[schema.SiteBotRow](t, out, schema.SiteBots))/len(sites) {
					t.Errorf("%d site_bots rows", perSite[want.Host])
				}
			})
		}
	}
	for _, table := range schema.ReduceTables() {
		a, b := readTable[schema.SiteRow](t, outs[0], schema.Sites), readTable[schema.SiteRow](t, outs[1], schema.Sites)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("sites rows differ between --workers 1 and 2")
		}
		fa, _ := schema.TableFiles(outs[0], table)
		fb, _ := schema.TableFiles(outs[1], table)
		for i := range fa {
			x, _ := os.ReadFile(fa[i].Path)
			y, _ := os.ReadFile(fb[i].Path)
			if !bytes.Equal(x, y) {
				t.Errorf("%s: %s differs between --workers 1 and 2", table, filepath.Base(fa[i].Path))
			}
		}
	}
}

// TestSitesFixtureFresh: the committed fixture is what reducetest writes.
func TestSitesFixtureFresh(t *testing.T) {
	dir := t.TempDir()
	if err := reducetest.Write(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range reducetest.Files {
		got, _ := os.ReadFile(filepath.Join(dir, name))
		want, err := os.ReadFile(filepath.Join(sitesFixture, name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is stale (%v): go run ./scripts/gensites reduce/testdata/sites", name, err)
		}
	}
}

// TestSitesPartitions: the number of partitions the reduce spills to
// (Options.PartitionCaptures) changes nothing in its output. With one
// capture per partition every redirect, every host's candidates and every
// answer's verdicts cross partitions.
func TestSitesPartitions(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	if _, errOut, code := run(t, "", "analyze", "--quiet", "--out", out, sitesFixture); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, errOut, code := run(t, "", "analyze", "--quiet", "--out", out); code != 0 { // and the embedded sample
		t.Fatalf("exit %d: %s", code, errOut)
	}
	build := func(perPartition int) ([]schema.SiteRow, []schema.SiteBotRow) {
		t.Helper()
		if _, err := reduce.Sites(context.Background(), reduce.Options{Dir: out, Version: Version, PartitionCaptures: perPartition}); err != nil {
			t.Fatal(err)
		}
		// Rows come partition by partition: compare them in one order.
		s, b := readTable[schema.SiteRow](t, out, schema.Sites), readTable[schema.SiteBotRow](t, out, schema.SiteBots)
		slices.SortFunc(s, func(x, y schema.SiteRow) int {
			return cmp.Or(cmp.Compare(x.Crawl, y.Crawl), cmp.Compare(x.Host, y.Host))
		})
		slices.SortStableFunc(b, func(x, y schema.SiteBotRow) int {
			return cmp.Or(cmp.Compare(x.Crawl, y.Crawl), cmp.Compare(x.Host, y.Host))
		})
		return s, b
	}
	sites, bots := build(0)
	if len(sites) < 60 || len(bots) < 60*len(sites)/2 {
		t.Fatalf("%d sites, %d site_bots rows: the inputs did not make it", len(sites), len(bots))
	}
	for _, n := range []int{1, 2, 7, 40} {
		s, b := build(n)
		if !reflect.DeepEqual(s, sites) {
			t.Errorf("%d captures a partition: the sites rows differ", n)
		}
		if !reflect.DeepEqual(b, bots) {
			t.Errorf("%d captures a partition: the site_bots rows differ", n)
		}
	}
}
