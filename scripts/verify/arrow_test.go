package verify

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/schema/schematest"
)

func allTables() []string {
	var s []string
	for _, t := range schema.AllTables() {
		s = append(s, string(t))
	}
	return s
}

// parquetFiles returns the *.parquet files under root, relative.
func parquetFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".parquet") {
			rel, _ := filepath.Rel(root, p)
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// arrowFile is one file opened with Arrow's Parquet reader.
type arrowFile struct {
	table, crawlDir string
	rdr             *file.Reader
	schema          *arrow.Schema
	data            arrow.Table
}

// partOf returns the one file, relative to root, that run wrote for crawl
// in table (its name holds a commit part no test can know).
func partOf(t *testing.T, root, table, crawl, run string) string {
	t.Helper()
	dir := filepath.Join(table, partition(crawl))
	m, _ := filepath.Glob(filepath.Join(root, dir, "part-"+run+".*.parquet"))
	if len(m) != 1 {
		t.Fatalf("%s: %d files of run %s, want 1", dir, len(m), run)
	}
	return filepath.Join(dir, filepath.Base(m[0]))
}

func openArrow(t *testing.T, root, rel string) *arrowFile {
	t.Helper()
	parts := strings.Split(rel, string(filepath.Separator))
	if len(parts) != 3 {
		t.Fatalf("%s: want table/crawl=NAME/file", rel)
	}
	rdr, err := file.OpenParquetFile(filepath.Join(root, rel), false)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	t.Cleanup(func() { rdr.Close() })
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	sc, err := fr.Schema()
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	data, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatalf("%s: reading all rows: %v", rel, err)
	}
	t.Cleanup(data.Release)
	return &arrowFile{table: parts[0], crawlDir: parts[1], rdr: rdr, schema: sc, data: data}
}

// TestArrowReadsEveryFile opens every file of the fixture with Arrow and
// checks it against schema/README.md and the rows written.
func TestArrowReadsEveryFile(t *testing.T) {
	doc := docSchema(t)
	rowsPerTable := map[string]int64{}
	files := parquetFiles(t, fixtureRoot)
	if len(files) == 0 {
		t.Fatal("no files")
	}
	for _, rel := range files {
		t.Run(rel, func(t *testing.T) {
			f := openArrow(t, fixtureRoot, rel)
			cols := doc[f.table]

			// Columns: names, order, types and nullability as documented.
			if len(f.schema.Fields()) != len(cols) {
				t.Fatalf("%d columns, schema/README.md documents %d", len(f.schema.Fields()), len(cols))
			}
			for i, fld := range f.schema.Fields() {
				c := cols[i]
				if fld.Name != c.name {
					t.Errorf("column %d is %s, documented %s", i, fld.Name, c.name)
				}
				if err := matchArrowType(fld.Type, c.typ); err != nil {
					t.Errorf("column %s: %v", fld.Name, err)
				}
				if fld.Nullable != c.null {
					t.Errorf("column %s: nullable = %v, documented %v", fld.Name, fld.Nullable, c.null)
				}
			}

			// Rows: exactly the fixture's rows of this table and crawl.
			want := int64(0)
			for crawl, n := range crawlCounts(fixture, schema.TableName(f.table)) {
				if partition(crawl) == f.crawlDir {
					want = int64(n)
				}
			}
			if got := f.rdr.NumRows(); got != want || f.data.NumRows() != want {
				t.Errorf("%d rows in the footer, %d read; want %d", got, f.data.NumRows(), want)
			}
			rowsPerTable[f.table] += f.rdr.NumRows()

			// Key/value metadata.
			kv := f.rdr.MetaData().KeyValueMetadata()
			crawl := strings.TrimPrefix(f.crawlDir, "crawl=")
			if crawl == schema.DefaultPartition {
				crawl = ""
			}
			for k, v := range map[string]string{
				schema.MetaVersion:                      fixtureOptions.Version,
				schema.MetaSchemaVersion:                schema.SchemaVersion,
				schema.MetaTable:                        f.table,
				schema.MetaCrawl:                        crawl,
				schema.MetaRunID:                        fixtureOptions.RunID,
				schema.MetaOptionPrefix + "parse_limit": "512000",
				schema.MetaOptionPrefix + "bots":        "fixture-catalog",
			} {
				if got := kv.FindValue(k); got == nil || *got != v {
					t.Errorf("metadata %s = %v, want %q", k, got, v)
				}
			}

			// Every column chunk zstd; every string column dictionary encoded.
			md := f.rdr.MetaData()
			if f.data.NumRows() > 64 && md.NumRowGroups() < 2 {
				t.Errorf("%d rows in %d row group(s) with RowGroupRows 64", f.data.NumRows(), md.NumRowGroups())
			}
			for g := range md.NumRowGroups() {
				rg := md.RowGroup(g)
				for c := range rg.NumColumns() {
					cc, err := rg.ColumnChunk(c)
					if err != nil {
						t.Fatal(err)
					}
					path := cc.PathInSchema().String()
					if cc.Compression() != compress.Codecs.Zstd {
						t.Errorf("row group %d column %s: compression %v, want ZSTD", g, path, cc.Compression())
					}
					if cc.Type() == parquet.Types.ByteArray && !cc.HasDictionaryPage() && rg.NumRows() > 0 {
						t.Errorf("row group %d column %s: string column without a dictionary page", g, path)
					}
				}
			}
		})
	}
	for _, tb := range allTables() {
		if want := int64(schematest.Count(fixture, schema.TableName(tb))); rowsPerTable[tb] != want {
			t.Errorf("%s: %d rows over all files, want %d", tb, rowsPerTable[tb], want)
		}
	}
}

// matchArrowType checks an Arrow type against a documented DuckDB type.
func matchArrowType(dt arrow.DataType, doc string) error {
	if elem, ok := strings.CutSuffix(doc, "[]"); ok {
		lt, ok := dt.(*arrow.ListType)
		if !ok {
			return fmt.Errorf("type %v, documented %s: want an Arrow list", dt, doc)
		}
		return matchArrowType(lt.Elem(), elem)
	}
	if inner, ok := strings.CutPrefix(doc, "STRUCT("); ok {
		st, ok := dt.(*arrow.StructType)
		if !ok {
			return fmt.Errorf("type %v, documented %s: want an Arrow struct", dt, doc)
		}
		fields := strings.Split(strings.TrimSuffix(inner, ")"), ", ")
		if len(fields) != st.NumFields() {
			return fmt.Errorf("struct %v, documented %s", dt, doc)
		}
		for i, f := range fields {
			name, typ, _ := strings.Cut(f, " ")
			if st.Field(i).Name != name {
				return fmt.Errorf("struct field %d is %s, documented %s", i, st.Field(i).Name, name)
			}
			if err := matchArrowType(st.Field(i).Type, typ); err != nil {
				return err
			}
		}
		return nil
	}
	want := map[string]func(arrow.DataType) bool{
		"VARCHAR": func(d arrow.DataType) bool {
			return d.ID() == arrow.STRING || d.ID() == arrow.LARGE_STRING
		},
		"INTEGER": func(d arrow.DataType) bool { return d.ID() == arrow.INT32 },
		"BIGINT":  func(d arrow.DataType) bool { return d.ID() == arrow.INT64 },
		"BOOLEAN": func(d arrow.DataType) bool { return d.ID() == arrow.BOOL },
		"DOUBLE":  func(d arrow.DataType) bool { return d.ID() == arrow.FLOAT64 },
		"DATE":    func(d arrow.DataType) bool { return d.ID() == arrow.DATE32 },
		"TIMESTAMP WITH TIME ZONE": func(d arrow.DataType) bool {
			ts, ok := d.(*arrow.TimestampType)
			return ok && ts.Unit == arrow.Millisecond && ts.TimeZone == "UTC"
		},
	}[doc]
	if want == nil {
		return fmt.Errorf("documented type %q has no Arrow counterpart in this test", doc)
	}
	if !want(dt) {
		return fmt.Errorf("Arrow type %v does not match documented %s", dt, doc)
	}
	return nil
}

// TestArrowValues compares values that need care (timestamps, NULLs, lists,
// structs) with the rows written, file by file.
func TestArrowValues(t *testing.T) {
	for _, crawl := range []string{"CC-MAIN-2024-33", ""} {
		t.Run("captures_"+partition(crawl), func(t *testing.T) {
			f := openArrow(t, fixtureRoot, partOf(t, fixtureRoot, "captures", crawl, "fixture"))
			var want []time.Time
			var wantRank []int64
			for _, c := range fixture.Captures {
				if c.Crawl == crawl {
					want = append(want, c.FetchTime)
					wantRank = append(wantRank, c.Rank)
				}
			}
			ft := column(t, f.data, "fetch_time").(*array.Timestamp)
			rank := column(t, f.data, "rank").(*array.Int64)
			crawlCol := column(t, f.data, "crawl").(*array.String)
			for i := range want {
				if want[i].IsZero() != ft.IsNull(i) {
					t.Fatalf("row %d: fetch_time null = %v, want %v", i, ft.IsNull(i), want[i].IsZero())
				}
				if !want[i].IsZero() && !ft.Value(i).ToTime(arrow.Millisecond).Equal(want[i]) {
					t.Fatalf("row %d: fetch_time %v, want %v", i, ft.Value(i).ToTime(arrow.Millisecond), want[i])
				}
				if (wantRank[i] == 0) != rank.IsNull(i) || wantRank[i] != 0 && rank.Value(i) != wantRank[i] {
					t.Fatalf("row %d: rank %v (null %v), want %d", i, rank.Value(i), rank.IsNull(i), wantRank[i])
				}
				if (crawl == "") != crawlCol.IsNull(i) || crawl != "" && crawlCol.Value(i) != crawl {
					t.Fatalf("row %d: crawl %q (null %v), want %q", i, crawlCol.Value(i), crawlCol.IsNull(i), crawl)
				}
			}
		})
	}
	t.Run("groups_lists", func(t *testing.T) {
		f := openArrow(t, fixtureRoot, partOf(t, fixtureRoot, "groups", fixture.Groups[0].Crawl, "fixture"))
		uas := column(t, f.data, "user_agents").(*array.List)
		i := 0
		for _, g := range fixture.Groups {
			if g.Crawl != fixture.Groups[0].Crawl {
				continue
			}
			start, end := uas.ValueOffsets(i)
			vals := uas.ListValues().(*array.String)
			var got []string
			for j := start; j < end; j++ {
				got = append(got, vals.Value(int(j)))
			}
			if strings.Join(got, "\x00") != strings.Join(g.UserAgents, "\x00") {
				t.Fatalf("row %d: user_agents %q, want %q", i, got, g.UserAgents)
			}
			i++
		}
	})
	t.Run("directives_signals", func(t *testing.T) {
		crawl := fixture.Directives[0].Crawl
		f := openArrow(t, fixtureRoot, partOf(t, fixtureRoot, "directives", crawl, "fixture"))
		sig := column(t, f.data, "signals").(*array.List)
		i := 0
		for _, d := range fixture.Directives {
			if d.Crawl != crawl {
				continue
			}
			if (d.Signals == nil) != sig.IsNull(i) {
				t.Fatalf("row %d (%s): signals null = %v", i, d.Directive, sig.IsNull(i))
			}
			if d.Signals != nil {
				start, end := sig.ValueOffsets(i)
				st := sig.ListValues().(*array.Struct)
				keys, values := st.Field(0).(*array.String), st.Field(1).(*array.String)
				if int(end-start) != len(d.Signals) {
					t.Fatalf("row %d: %d signals, want %d", i, end-start, len(d.Signals))
				}
				for j, s := range d.Signals {
					if keys.Value(int(start)+j) != s.Key || values.Value(int(start)+j) != s.Value {
						t.Fatalf("row %d signal %d: %s=%s, want %s=%s", i, j, keys.Value(int(start)+j), values.Value(int(start)+j), s.Key, s.Value)
					}
				}
			}
			i++
		}
	})
}

// column returns the named column of an Arrow table as one array (the
// fixture's files are small enough to be read as one chunk per column).
func column(t *testing.T, tbl arrow.Table, name string) arrow.Array {
	t.Helper()
	idx := tbl.Schema().FieldIndices(name)
	if len(idx) != 1 {
		t.Fatalf("no column %s", name)
	}
	chunks := tbl.Column(idx[0]).Data().Chunks()
	if len(chunks) != 1 {
		arr, err := array.Concatenate(chunks, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(arr.Release)
		return arr
	}
	return chunks[0]
}
