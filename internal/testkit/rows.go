package testkit

import (
	"errors"
	"io"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// ParquetRows returns every row of the Parquet file at path as a string
// that holds each of its values with its column, repetition and definition
// levels and kind (a null is not an empty string, a list of two is not two
// rows), prefixed with prefix (the file's crawl, say), in file order. Sort
// two lists and compare them to check that two datasets hold the same rows,
// each as many times: a multiset, which is what a rerun, a kill or a
// compaction must keep.
//
// It reads the file's own columns, not a Go type's: a column a row type
// does not name is compared too. Rows are read without building Go values
// or JSON, five times faster than parquet.ReadFile and json.Marshal, which
// the kill tests, comparing ~10^6 rows a dozen times, needed.
func ParquetRows(t testing.TB, path, prefix string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out := make([]string, 0, pf.NumRows())
	buf := make([]parquet.Row, 256)
	var key []byte
	for _, rg := range pf.RowGroups() {
		rows := rg.Rows()
		for {
			n, err := rows.ReadRows(buf)
			for _, row := range buf[:n] {
				key = append(key[:0], prefix...)
				for _, v := range row {
					key = appendValue(key, v)
				}
				out = append(out, string(key))
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				rows.Close()
				t.Fatalf("%s: %v", path, err)
			}
		}
		rows.Close()
	}
	return out
}

// appendValue appends "\tCOLUMN:REP:DEF=VALUE"; a byte array is its
// length and its bytes, so that no value can pass for two.
func appendValue(b []byte, v parquet.Value) []byte {
	b = append(b, '\t')
	b = strconv.AppendInt(b, int64(v.Column()), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(v.RepetitionLevel()), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(v.DefinitionLevel()), 10)
	b = append(b, '=')
	if v.IsNull() {
		return append(b, "null"...)
	}
	switch v.Kind() {
	case parquet.Boolean:
		return strconv.AppendBool(b, v.Boolean())
	case parquet.Int32:
		return strconv.AppendInt(b, int64(v.Int32()), 10)
	case parquet.Int64:
		return strconv.AppendInt(b, v.Int64(), 10)
	case parquet.Float:
		return strconv.AppendUint(append(b, 'f'), uint64(math.Float32bits(v.Float())), 16)
	case parquet.Double:
		return strconv.AppendUint(append(b, 'd'), math.Float64bits(v.Double()), 16)
	default: // ByteArray, FixedLenByteArray, Int96
		raw := v.Bytes()
		b = strconv.AppendInt(b, int64(len(raw)), 10)
		b = append(b, ':')
		return append(b, raw...)
	}
}
