package schema

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// The reader's tests live in package schema (not schema_test) only for
// partitionDir; everything else goes through the exported API. Rows come
// from a small local generator, not schematest, which imports this package.

func readerRows(n int) ([]CaptureRow, []BotRow) {
	var caps []CaptureRow
	var bots []BotRow
	crawls := []string{"CC-MAIN-2024-33", "", "my crawl/2024"}
	outcomes := []string{OutcomeParsed, OutcomeUnavailable, OutcomeUnreachable, OutcomeRedirect}
	for i := range n {
		k := Key{
			CaptureID: CaptureID("", "", "src.warc.gz", int64(i)),
			Crawl:     crawls[i%3],
			URL:       "https://h" + itoa(i) + ".example/robots.txt",
			Host:      "h" + itoa(i) + ".example",
		}
		c := CaptureRow{Key: k, Outcome: outcomes[i%4], RobotsPath: i%7 != 0, HTTPStatus: int32(200 + i%4*100),
			BodyBytes: int64(i) * 1000, Groups: int32(i % 9), LooksHTML: i%5 == 0, Scheme: "https"}
		if i%3 != 0 {
			c.Template = []string{"wordpress", "shopify"}[i%2]
		}
		if i%4 != 0 {
			c.Rank = int64(i + 1)
		}
		if i%6 == 0 {
			c.HTTPStatus = 0 // NULL
		}
		caps = append(caps, c)
		for j, b := range []string{"GPTBot", "CCBot", "ClaudeBot"} {
			bots = append(bots, BotRow{Key: k, Bot: b, Category: CategoryAITraining, Matched: MatchedStar,
				Verdict: []string{VerdictFull, VerdictNone, VerdictPartial}[(i+j)%3], CCClass: CCClassAllowAll})
		}
	}
	return caps, bots
}

func itoa(i int) string { return strconv.Itoa(i) }

// smallGroups makes small row groups and a tiny dictionary limit, so files
// hold several row groups and string columns switch from dictionary to
// plain pages partway through.
var smallGroups = Options{RowGroupRows: 700, DictionaryBytes: 2048}

// writeDataset writes caps (in batches of 100) and bots to the captures and
// bots tables of a dataset under dir with the sizes of o, and commits.
func writeDataset(tb testing.TB, dir string, o Options, caps []CaptureRow, bots []BotRow) {
	tb.Helper()
	o.Dir, o.RunID, o.Tables = dir, "r1", []TableName{Captures, Bots}
	ds, err := Create(o)
	if err != nil {
		tb.Fatal(err)
	}
	defer ds.Abort()
	for i := 0; i < len(caps); i += 100 {
		if err := WriterOf[CaptureRow](ds).Write(caps[i:min(i+100, len(caps))]); err != nil {
			tb.Fatal(err)
		}
	}
	if err := WriterOf[BotRow](ds).Write(bots); err != nil {
		tb.Fatal(err)
	}
	if err := ds.Commit(context.Background()); err != nil {
		tb.Fatal(err)
	}
}

var captureColumns = []string{"capture_id", "crawl", "url", "host", "robots_path", "http_status", "outcome", "template", "rank", "body_bytes", "groups", "looks_html"}

// project zeroes the fields ReadFile was not asked for, and is the
// expectation for a row read back.
func project(c CaptureRow) CaptureRow {
	return CaptureRow{Key: c.Key, RobotsPath: c.RobotsPath, HTTPStatus: c.HTTPStatus, Outcome: c.Outcome, Template: c.Template,
		Rank: c.Rank, BodyBytes: c.BodyBytes, Groups: c.Groups, LooksHTML: c.LooksHTML}
}

func TestReadFileProjection(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	caps, bots := readerRows(5000)
	writeDataset(t, dir, smallGroups, caps, bots)

	files, err := TableFiles(dir, Captures)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 3 {
		t.Fatalf("got %d files, want 3 (one per crawl): %+v", len(files), files)
	}
	want := map[string][]CaptureRow{}
	for _, c := range caps {
		want[c.Crawl] = append(want[c.Crawl], project(c))
	}
	for _, f := range files {
		info, err := ReadFileInfo(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		var got []CaptureRow
		batches := 0
		err = ReadFile(context.Background(), f.Path, captureColumns, func(rows []CaptureRow) error {
			batches++
			if len(rows) > ReadBatchRows {
				t.Errorf("batch of %d rows", len(rows))
			}
			got = append(got, rows...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(got)) != info.Rows || info.Metadata[MetaTable] != "captures" {
			t.Errorf("%s: read %d rows, footer says %d, metadata %v", f.Path, len(got), info.Rows, info.Metadata)
		}
		if !reflect.DeepEqual(got, want[f.Crawl]) {
			for i := range got {
				if got[i] != want[f.Crawl][i] {
					t.Fatalf("crawl %q row %d:\n got %+v\nwant %+v", f.Crawl, i, got[i], want[f.Crawl][i])
				}
			}
			t.Fatalf("crawl %q: %d rows, want %d", f.Crawl, len(got), len(want[f.Crawl]))
		}

		// Its row groups read one by one, in order, are the same rows.
		var groups []CaptureRow
		for gi := range info.RowGroups {
			err := ReadRowGroup(context.Background(), f.Path, gi, captureColumns, func(rows []CaptureRow) error {
				groups = append(groups, rows...)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		if info.RowGroups < 2 || !reflect.DeepEqual(groups, got) {
			t.Errorf("%s: %d row groups read one by one give %d rows, not ReadFile's %d", f.Path, info.RowGroups, len(groups), len(got))
		}
		err = ReadRowGroup(context.Background(), f.Path, info.RowGroups, captureColumns, func([]CaptureRow) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "row group") {
			t.Errorf("row group %d of %d: err %v, want a located error", info.RowGroups, info.RowGroups, err)
		}

		// parquet-go's own row reader, a different code path, agrees.
		all, err := parquet.ReadFile[CaptureRow](f.Path)
		if err != nil {
			t.Fatal(err)
		}
		for i := range all {
			if project(all[i]) != got[i] {
				t.Fatalf("row %d: parquet-go reads %+v, ReadFile %+v", i, project(all[i]), got[i])
			}
		}
	}

	// The files really hold several row groups and plain pages after the
	// dictionary overflowed, or this test proves less than it says.
	f, pf, err := openParquet(files[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if n := len(pf.RowGroups()); n < 2 {
		t.Errorf("%d row groups, want several", n)
	}
	plain := false
	for _, cc := range pf.Metadata().RowGroups[0].Columns {
		if cc.MetaData.PathInSchema[0] == "capture_id" {
			for _, e := range cc.MetaData.Encoding {
				plain = plain || e.String() == "PLAIN"
			}
		}
	}
	if !plain {
		t.Error("capture_id has no plain pages; lower DictionaryBytes")
	}
}

func TestReadFileBots(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	caps, bots := readerRows(3000)
	writeDataset(t, dir, smallGroups, caps, bots)
	files, err := TableFiles(dir, Bots)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	n := 0
	for _, f := range files {
		err := ReadFile(context.Background(), f.Path, []string{"bot", "verdict", "capture_id"}, func(rows []BotRow) error {
			for _, r := range rows {
				counts[r.Bot+"/"+r.Verdict]++
				if r.CaptureID == "" || r.Host != "" || r.Category != "" {
					t.Fatalf("row %+v: wrong projection", r)
				}
			}
			n += len(rows)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n != len(bots) {
		t.Fatalf("read %d bots rows, wrote %d", n, len(bots))
	}
	want := map[string]int{}
	for _, b := range bots {
		want[b.Bot+"/"+b.Verdict]++
	}
	if !reflect.DeepEqual(counts, want) {
		t.Errorf("counts %v, want %v", counts, want)
	}
}

func TestReadFileErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	caps, bots := readerRows(50)
	writeDataset(t, dir, smallGroups, caps, bots)
	files, err := TableFiles(dir, Captures)
	if err != nil {
		t.Fatal(err)
	}
	path := files[0].Path
	nop := func([]CaptureRow) error { return nil }

	truncated := filepath.Join(t.TempDir(), "truncated.parquet")
	b, _ := os.ReadFile(path)
	if err := os.WriteFile(truncated, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	otherVersion := filepath.Join(t.TempDir(), "v99.parquet")
	{
		f, _ := os.Create(otherVersion)
		w := parquet.NewGenericWriter[CaptureRow](f, parquet.KeyValueMetadata(MetaSchemaVersion, "99"))
		if _, err := w.Write(caps[:1]); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	// A file of schema version 1 lacks only what version 2 added: it reads.
	version1 := filepath.Join(t.TempDir(), "v1.parquet")
	{
		f, _ := os.Create(version1)
		w := parquet.NewGenericWriter[CaptureRow](f, parquet.KeyValueMetadata(MetaSchemaVersion, "1"))
		if _, err := w.Write(caps[:1]); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		f.Close()
		var hosts []string
		if err := ReadFile(context.Background(), version1, []string{"host"}, func(rows []CaptureRow) error {
			for _, r := range rows {
				hosts = append(hosts, r.Host)
			}
			return nil
		}); err != nil || len(hosts) != 1 || hosts[0] != caps[0].Host {
			t.Errorf("schema version 1 file: %v, %v", hosts, err)
		}
	}
	stop := errors.New("stop")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()

	cases := []struct {
		name    string
		ctx     context.Context
		path    string
		columns []string
		fn      func([]CaptureRow) error
		is      error
		text    string
	}{
		{name: "no_such_column_in_type", path: path, columns: []string{"nope"}, is: ErrColumn, text: `no column "nope"`},
		{name: "missing_file", path: filepath.Join(dir, "nope.parquet"), columns: []string{"host"}, is: os.ErrNotExist},
		{name: "truncated_file", path: truncated, columns: []string{"host"}, text: truncated},
		{name: "other_schema_version", path: otherVersion, columns: []string{"host"}, is: ErrSchemaVersion, text: "schema version 99"},
		{name: "callback_error", path: path, columns: []string{"host"}, fn: func([]CaptureRow) error { return stop }, is: stop, text: path},
		{name: "cancelled", ctx: ctx, path: path, columns: []string{"host"}, is: context.Canceled},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.ctx == nil {
				c.ctx = context.Background()
			}
			if c.fn == nil {
				c.fn = nop
			}
			err := ReadFile(c.ctx, c.path, c.columns, c.fn)
			if err == nil {
				t.Fatal("no error")
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("error %v does not wrap %v", err, c.is)
			}
			if !strings.Contains(err.Error(), c.text) {
				t.Errorf("error %q does not mention %q", err, c.text)
			}
		})
	}

	// A bots column read into a captures row is a schema mismatch too.
	bf, _ := TableFiles(dir, Bots)
	err = ReadFile(context.Background(), bf[0].Path, []string{"outcome"}, nop)
	if !errors.Is(err, ErrColumn) || !strings.Contains(err.Error(), bf[0].Path) {
		t.Errorf("captures columns from a bots file: %v", err)
	}
}

func TestReadFileZeroRows(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	caps, _ := readerRows(10)
	writeDataset(t, dir, Options{}, caps, nil)
	files, err := TableFiles(dir, Bots)
	if err != nil || len(files) != 1 {
		t.Fatalf("bots files %v, %v: want the one zero-row file", files, err)
	}
	calls := 0
	if err := ReadFile(context.Background(), files[0].Path, []string{"bot"}, func([]BotRow) error { calls++; return nil }); err != nil {
		t.Fatal(err)
	}
	if calls != 0 {
		t.Errorf("%d calls for a zero-row file", calls)
	}
}

func TestTableFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	caps, bots := readerRows(30)
	writeDataset(t, dir, fixGen(smallGroups), caps, bots)
	// What a running or killed writer leaves, and things that are not
	// robotstat files, must not be listed.
	part, _ := partitionDir("CC-MAIN-2024-33")
	for _, name := range []string{
		filepath.Join("captures", part, ".part-r2.parquet.123456.tmp"),
		filepath.Join("captures", part, ".hidden.parquet"),
		filepath.Join("captures", part, "notes.txt"),
		filepath.Join("captures", "stray.parquet"),
		filepath.Join("captures", "other=x", "part-r1.parquet"),
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("PAR1 not really"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "captures", part, "dir.parquet"), 0o755); err != nil {
		t.Fatal(err)
	}
	files, err := TableFiles(dir, Captures)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f.Path)
		got = append(got, f.Crawl+" | "+rel)
	}
	want := []string{
		"CC-MAIN-2024-33 | captures/crawl=CC-MAIN-2024-33/part-r1.00000000.parquet",
		"my crawl/2024 | captures/crawl=my%20crawl%2F2024/part-r1.00000000.parquet",
		" | captures/crawl=__HIVE_DEFAULT_PARTITION__/part-r1.00000000.parquet",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("files\n%q\nwant\n%q", got, want)
	}
	if _, err := TableFiles(dir, Rules); !errors.Is(err, ErrNoTable) {
		t.Errorf("missing table: %v, want ErrNoTable", err)
	}
}

func TestParsePartitionDirRoundTrip(t *testing.T) {
	t.Parallel()
	for _, crawl := range []string{"", "CC-MAIN-2024-33", "my crawl/2024", "..", ".hidden", "__HIVE_DEFAULT_PARTITION__", "ünïcode", "100%", "a=b"} {
		dir, err := partitionDir(crawl)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := parsePartitionDir(dir)
		if !ok || got != crawl {
			t.Errorf("%q -> %q -> %q, %v", crawl, dir, got, ok)
		}
	}
	// Malformed escapes stay as written, each on its own, as DuckDB
	// decodes these folder names (hive_partitioning = true).
	for name, want := range map[string]string{"crawl=a%2": "a%2", "crawl=%zz": "%zz", "crawl=%41": "A",
		"crawl=a%41%zz": "aA%zz", "crawl=d%%41": "d%A", "crawl=%+1": "%+1"} {
		if got, ok := parsePartitionDir(name); !ok || got != want {
			t.Errorf("%q -> %q, want %q", name, got, want)
		}
	}
	if _, ok := parsePartitionDir("other=x"); ok {
		t.Error("other=x read as a partition")
	}
}

// BenchmarkReadFile measures rows/s for the columns the report reads.
func BenchmarkReadFile(b *testing.B) {
	dir := b.TempDir()
	caps, bots := readerRows(30000)
	writeDataset(b, dir, Options{}, caps, bots)
	capFiles, _ := TableFiles(dir, Captures)
	botFiles, _ := TableFiles(dir, Bots)
	b.Run("captures", func(b *testing.B) {
		benchRead[CaptureRow](b, capFiles, captureColumns)
	})
	b.Run("bots", func(b *testing.B) {
		benchRead[BotRow](b, botFiles, []string{"capture_id", "bot", "category", "matched", "verdict", "somesite", "cic", "cc_class"})
	})
}

func benchRead[T Row](b *testing.B, files []File, columns []string) {
	b.ReportAllocs()
	rows := 0
	for b.Loop() {
		for _, f := range files {
			if err := ReadFile(context.Background(), f.Path, columns, func(r []T) error { rows += len(r); return nil }); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

// signals.group_index is an optional INT32 read into an *int32: NULL stays
// nil, 0 stays a pointer to 0, in dictionary and plain pages alike; and
// sites.crawl_date, a DATE, reads into an int32 as days since 1970.
func TestReadFilePointerAndDate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ds, err := Create(Options{Dir: dir, RunID: "r1", Tables: []TableName{Signals, Sites}, RowGroupRows: 300, DictionaryBytes: 64})
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Abort()
	var sig []SignalRow
	var sites []SiteRow
	for i := range 1000 {
		r := SignalRow{Key: Key{CaptureID: itoa(i), Host: "h"}, Directive: "content-signal", Line: int32(i), Name: "ai-train", Value: "no"}
		if i%3 != 0 {
			g := int32(i % 7) // 0 among them
			r.GroupIndex = &g
		}
		sig = append(sig, r)
		sites = append(sites, SiteRow{Host: "h" + itoa(i), URL: "u", Outcome: OutcomeParsed, StatusClass: StatusClassSuccess, CrawlDate: int32(i % 2 * 19000)})
	}
	if err := WriterOf[SignalRow](ds).Write(sig); err != nil {
		t.Fatal(err)
	}
	if err := WriterOf[SiteRow](ds).Write(sites); err != nil {
		t.Fatal(err)
	}
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	files, _ := TableFiles(dir, Signals)
	i := 0
	if err := ReadFile(context.Background(), files[0].Path, []string{"line", "group_index"}, func(rows []SignalRow) error {
		for _, r := range rows {
			want := sig[r.Line].GroupIndex
			if (r.GroupIndex == nil) != (want == nil) || want != nil && *r.GroupIndex != *want {
				t.Fatalf("row %d: group_index %v, want %v", r.Line, r.GroupIndex, want)
			}
			i++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if i != len(sig) {
		t.Errorf("read %d rows, want %d", i, len(sig))
	}
	files, _ = TableFiles(dir, Sites)
	i = 0
	if err := ReadFile(context.Background(), files[0].Path, []string{"crawl_date"}, func(rows []SiteRow) error {
		for _, r := range rows {
			if r.CrawlDate != sites[i].CrawlDate {
				t.Fatalf("row %d: crawl_date %d, want %d", i, r.CrawlDate, sites[i].CrawlDate)
			}
			i++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
