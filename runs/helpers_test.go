package runs_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/runs"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/schema/schematest"
	"github.com/robotstat/robotstat/stats"
)

// crawl is the crawl of the fixture's WARCs, mirrored under testdata as
// Common Crawl lays it out (crawl-data/CRAWL/robotstxt.paths.gz).
const crawl = "CC-MAIN-2024-22"

// fixtures returns the fixture's four WARC files (ten captures each).
func fixtures(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "crawl-data", crawl, "segments", "*", "robotstxt", "*.warc.gz"))
	if err != nil || len(files) != 4 {
		t.Fatalf("fixtures: %v %v", files, err)
	}
	return files
}

// config is a run into dir with the defaults, on two workers.
func config(dir string) runs.Config {
	return runs.Config{Dir: dir, Pipeline: pipeline.Config{Workers: 2}, Stats: stats.DefaultOptions(), Version: "test"}
}

// rowsJSON is every committed row of table tb under root, read with
// parquet-go's typed reader, as sorted JSON lines: a multiset.
func rowsJSON[T schema.Row](t *testing.T, root string, tb schema.TableName) []string {
	t.Helper()
	files, err := schema.TableFiles(root, tb)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		rows, err := parquet.ReadFile[T](f.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			b, _ := json.Marshal(r)
			out = append(out, f.Crawl+"\t"+string(b))
		}
	}
	slices.Sort(out)
	return out
}

// tables is every default table's rows.
func tables(t *testing.T, root string) map[schema.TableName][]string {
	t.Helper()
	return map[schema.TableName][]string{
		schema.Captures:   schematest.TableRows(t, root, schema.Captures),
		schema.Groups:     schematest.TableRows(t, root, schema.Groups),
		schema.Agents:     schematest.TableRows(t, root, schema.Agents),
		schema.Directives: schematest.TableRows(t, root, schema.Directives),
		schema.Verdicts:   schematest.TableRows(t, root, schema.Verdicts),
	}
}

// sameTables fails t when got and want differ in any table.
func sameTables(t *testing.T, what string, got, want map[schema.TableName][]string) {
	t.Helper()
	for tb, w := range want {
		if g := got[tb]; !slices.Equal(g, w) {
			t.Errorf("%s: %s has %d rows, want %d (or other rows)", what, tb, len(g), len(w))
		}
	}
}

// files lists every regular file under root, relative, with its
// modification time, so that a run that rewrites nothing can be told.
func files(t *testing.T, root string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[rel] = info.ModTime().UnixNano()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// records returns the completion records of the units under root (not
// the sites build's, not a compaction's), by input.
func records(t *testing.T, root string) map[string]*schema.Record {
	t.Helper()
	ix, err := schema.ReadIndex(root)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*schema.Record{}
	for _, r := range ix.Runs {
		if !r.IsCompaction() {
			out[r.Input] = r
		}
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
