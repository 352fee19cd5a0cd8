package runs_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/runs"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/stats"
)

// TestOptionDiff: a record holds what a run would write only with the same
// schema version, every option the same, none more, and every table asked
// for.
func TestOptionDiff(t *testing.T) {
	rec := func() *schema.Record {
		return &schema.Record{SchemaVersion: schema.SchemaVersion, Options: map[string]string{"a": "1", "b": "2"},
			Tables: []schema.TableName{schema.Captures, schema.Groups}}
	}
	opts := schema.Options{Metadata: map[string]string{"a": "1", "b": "2"}, Tables: []schema.TableName{schema.Captures}}
	for _, tc := range []struct {
		name string
		edit func(*schema.Record, *schema.Options)
		want string
	}{
		{"same", func(*schema.Record, *schema.Options) {}, ""},
		{"schema_version", func(r *schema.Record, _ *schema.Options) { r.SchemaVersion = "2" }, "schema version 2, now " + schema.SchemaVersion},
		{"value", func(_ *schema.Record, o *schema.Options) { o.Metadata["b"] = "3" }, `b "2", now "3"`},
		{"new_option", func(_ *schema.Record, o *schema.Options) { o.Metadata["c"] = "x" }, `c "", now "x"`},
		{"option_gone", func(_ *schema.Record, o *schema.Options) { delete(o.Metadata, "b") }, `b "2", now unset`},
		{"table_missing", func(_ *schema.Record, o *schema.Options) { o.Tables = append(o.Tables, schema.Rules) }, "no rules table"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, o := rec(), opts
			o.Metadata = map[string]string{"a": "1", "b": "2"}
			tc.edit(r, &o)
			if got := runs.OptionDiff(r, &o); got != tc.want {
				t.Errorf("OptionDiff = %q, want %q", got, tc.want)
			}
		})
	}
}

// oldKeys is an output of robotstat analyze before the options of package
// stats lost their doubled prefix (testdata/README.md): the fixture's crawl
// read by name, the captures table alone.
const oldKeys = "testdata/oldkeys"

// TestOldOptionKeys: an output written when the options of package stats
// were spelt robotstat.<key> (robotstat.option.robotstat.<key> in its
// files) is read as if written today, and a rerun with the same options
// resumes it: nothing is read again.
func TestOldOptionKeys(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := os.CopyFS(dir, os.DirFS(oldKeys)); err != nil {
		t.Fatal(err)
	}
	cfg := config(dir)
	cfg.Pipeline.CCBase = "testdata"
	cfg.Stats.Tables = []schema.TableName{schema.Captures}
	now := cfg.Stats.Metadata()

	// The fixture is what it says: old keys, in its records and files.
	recs, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(schema.RecordDir), "CC-MAIN-*.json"))
	if len(recs) != 4 {
		t.Fatalf("%d records in the fixture, want 4", len(recs))
	}
	for _, p := range recs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var raw struct{ Options map[string]string }
		if err := json.Unmarshal(b, &raw); err != nil || raw.Options["robotstat."+stats.OptionParseLimit] != "512000" || raw.Options[stats.OptionParseLimit] != "" {
			t.Fatalf("%s is not a record of the old spelling: %v %v", p, raw.Options, err)
		}
		// Versions of the catalog, templates and verdict definition
		// change on purpose (a rerun then redoes the input); they are
		// made today's, so that only the spelling is under test.
		for k, v := range now {
			if _, ok := raw.Options["robotstat."+k]; ok {
				b = []byte(strings.ReplaceAll(string(b), `"robotstat.`+k+`": "`+raw.Options["robotstat."+k]+`"`, `"robotstat.`+k+`": "`+v+`"`))
			}
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	ix, err := schema.ReadIndex(dir)
	if err != nil {
		t.Fatal(err)
	}
	for id, r := range ix.Runs {
		if id == "sites" {
			continue
		}
		for k := range now {
			if r.Options[k] != now[k] {
				t.Errorf("%s: option %s read as %q, want %q (options %v)", id, k, r.Options[k], now[k], r.Options)
			}
		}
		for k := range r.Options {
			if strings.HasPrefix(k, "robotstat.") {
				t.Errorf("%s: option %s still spelt the old way", id, k)
			}
		}
	}
	files, err := schema.TableFiles(dir, schema.Captures)
	if err != nil || len(files) != 4 {
		t.Fatalf("%d captures files (%v)", len(files), err)
	}
	info, err := schema.ReadFileInfo(files[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Metadata[schema.MetaOptionPrefix+stats.OptionParseLimit] != "512000" || info.Metadata[schema.MetaOptionPrefix+"robotstat."+stats.OptionParseLimit] != "" {
		t.Errorf("file metadata not read as today's: %v", info.Metadata)
	}

	r, err := runs.Analyze(context.Background(), cfg, []string{crawl})
	if err != nil {
		t.Fatal(err)
	}
	if r.Skipped != 4 || r.Committed != 0 || len(r.Replaced) != 0 {
		t.Errorf("rerun of an old output: skipped %d, committed %d, replaced %v; want all 4 skipped", r.Skipped, r.Committed, r.Replaced)
	}
}
