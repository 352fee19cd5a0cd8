package pipeline

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/robotstat/robotstat/record"
)

// csvRecords reads every record of data with csvReader, through a reader
// that returns chunk bytes at a time (buffer boundaries anywhere).
func csvRecords(data []byte, chunk int) ([][]string, int, error) {
	var c csvReader
	var r io.Reader = bytes.NewReader(data)
	if chunk > 0 {
		r = &chunkReader{r: r, n: chunk}
	}
	c.reset(r)
	var recs [][]string
	bad := 0
	for {
		_, err := c.read()
		if err == io.EOF {
			return recs, bad, nil
		}
		var re *csvRowError
		if errors.As(err, &re) {
			bad++
			continue
		}
		if err != nil {
			return recs, bad, err
		}
		rec := make([]string, len(c.ends))
		for i := range rec {
			rec[i] = string(c.fieldAt(i))
		}
		recs = append(recs, rec)
	}
}

type chunkReader struct {
	r io.Reader
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

// stdRecords is what encoding/csv reads, with the options the pipeline
// used before it had its own reader.
func stdRecords(data []byte) ([][]string, error) {
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord, cr.LazyQuotes = -1, true
	return cr.ReadAll()
}

var csvSeeds = []string{
	"url,status,body\nhttps://a.example/robots.txt,200,\"User-agent: *\nDisallow: /\n\"\n",
	"a,b\r\n\"c\"\"d\",\"e\r\nf\"\r\n\r\n\r\ng,h",
	"a,\"b\"c,\"d\"\"\",e\n\"\",\"\"\"\",x\"y\n",
	"a,\"unclosed field\n",
	"a,b\r",
	"\r\n\n\"x\"\r",
	"\"a\"\"\"\"\",b\n",
	"a,\"b\"\r\nc",
}

// TestCSVReaderMatchesEncodingCSV: for inputs without a runaway field,
// csvReader reads what encoding/csv (LazyQuotes) reads, whatever the
// buffer boundaries.
func TestCSVReaderMatchesEncodingCSV(t *testing.T) {
	t.Parallel()
	mix, err := os.ReadFile("testdata/repro/mix.csv")
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range append(csvSeeds, string(mix)) {
		want, err := stdRecords([]byte(s))
		if err != nil {
			t.Fatalf("seed %d: encoding/csv: %v", i, err)
		}
		for _, chunk := range []int{0, 1, 2, 3, 7} {
			got, bad, err := csvRecords([]byte(s), chunk)
			if err != nil || bad != 0 || !equalRecords(got, want) {
				t.Errorf("seed %d %q chunk %d: %q (bad %d, %v), encoding/csv %q", i, s, chunk, got, bad, err, want)
			}
		}
	}
}

func equalRecords(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.Join(a[i], "\x00") != strings.Join(b[i], "\x00") || len(a[i]) != len(b[i]) {
			return false
		}
	}
	return true
}

// FuzzCSVReader is a differential fuzz target: csvReader must read what
// encoding/csv reads (inputs are far below maxRow) unless a quoted field
// is left open across lines, and the same whatever the buffer boundaries.
func FuzzCSVReader(f *testing.F) {
	for _, s := range csvSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want, err := stdRecords(b)
		if err != nil {
			return
		}
		got, bad, err := csvRecords(b, 0)
		if err != nil {
			t.Fatal(err)
		}
		if bad > 0 {
			// A quote left open at the end after a line break: the
			// lines after the record's first are read as rows.
			if bad > bytes.Count(b, []byte(`"`)) || len(got) > bytes.Count(b, []byte("\n"))+1 {
				t.Fatalf("%d bad records, %d records", bad, len(got))
			}
		} else if !equalRecords(got, want) {
			t.Fatalf("%q, encoding/csv %q", got, want)
		}
		for _, chunk := range []int{1, 5} {
			g, bd, err := csvRecords(b, chunk)
			if err != nil || bd != bad || !equalRecords(g, got) {
				t.Fatalf("chunk %d: %q (bad %d, %v), in one go %q (bad %d)", chunk, g, bd, err, got, bad)
			}
		}
	})
}

// strayQuoteCSV generates a CSV dump of rows rows, some with a quote that
// opens a field and is never closed, without holding it in memory.
type strayQuoteCSV struct {
	rows, row int
	stray     func(i int) bool
	buf       []byte
}

func (s *strayQuoteCSV) Read(p []byte) (int, error) {
	for len(s.buf) < len(p) && s.row <= s.rows {
		if s.row == 0 {
			s.buf = append(s.buf, "url,status,body\n"...)
		} else if s.stray(s.row) {
			s.buf = append(s.buf, "https://stray"+strconv.Itoa(s.row)+".example/robots.txt,200,\"User-agent: *\n"...)
		} else {
			s.buf = append(s.buf, "https://h"+strconv.Itoa(s.row)+".example/robots.txt,404,\n"...)
		}
		s.row++
	}
	if len(s.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, s.buf)
	s.buf = s.buf[:copy(s.buf, s.buf[n:])]
	return n, nil
}

// TestCSVStrayQuote: a quote that opens a field and is never closed used
// to make the rest of the dump one record, with no error, held whole in
// memory. Now the record is cut at maxRow, counted, and reading resumes at
// the next line: every other row is read, and many stray quotes cost no
// more than one (no rescan of what a runaway field was scanned through).
func TestCSVStrayQuote(t *testing.T) {
	t.Parallel()
	const rows = 600001 // 24 MB, the last row not stray
	for _, tc := range strayCases {
		t.Run(tc.name, func(t *testing.T) {
			strays := tc.count(rows)
			var n atomic.Int64
			sum, err := Run(t.Context(), Config{Workers: 2}, []string{writeGenerated(t, "d.csv", &strayQuoteCSV{rows: rows, stray: tc.stray})},
				func(w int, c *record.Capture) error {
					if strings.HasPrefix(c.URL, "https://stray") {
						return errors.New("a stray row was read: " + c.URL)
					}
					n.Add(1)
					return nil
				})
			if err != nil {
				t.Fatal(err)
			}
			if n.Load() != int64(rows-strays) || sum.Errors[ClassRow] != int64(strays) || sum.ErrorCount() != int64(strays) {
				t.Errorf("captures %d, want %d; row errors %d, want %d: %v", n.Load(), rows-strays, sum.Errors[ClassRow], strays, sum.Diagnostics[:min(3, len(sum.Diagnostics))])
			}
		})
	}
}

type strayCase struct {
	name  string
	stray func(i int) bool
}

var strayCases = []strayCase{
	{"one", func(i int) bool { return i == 1000 }},
	{"every_thousandth_after_one", func(i int) bool { return i >= 1000 && i%1000 == 0 }},
}

// count is the number of stray rows among rows.
func (c strayCase) count(rows int) int {
	n := 0
	for i := 1; i <= rows; i++ {
		if c.stray(i) {
			n++
		}
	}
	return n
}

// TestCSVReaderBounded: whatever the stray quotes, csvReader's buffer
// stays within maxRow and a read chunk (encoding/csv held the rest of the
// input).
func TestCSVReaderBounded(t *testing.T) {
	t.Parallel()
	const rows = 600001
	for _, tc := range strayCases {
		t.Run(tc.name, func(t *testing.T) {
			var c csvReader
			c.reset(&strayQuoteCSV{rows: rows, stray: tc.stray})
			records, bad, most := 0, 0, 0
			for {
				_, err := c.read()
				most = max(most, cap(c.buf))
				if err == io.EOF {
					break
				}
				var re *csvRowError
				if errors.As(err, &re) {
					bad++
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				records++
			}
			if strays := tc.count(rows); records != rows+1-strays || bad != strays {
				t.Errorf("%d records (header included), %d bad; want %d, %d", records, bad, rows+1-strays, strays)
			}
			if most > maxRow+csvChunk {
				t.Errorf("buffer of %d bytes, want at most %d", most, maxRow+csvChunk)
			}
		})
	}
}

// writeGenerated writes what r generates to a file named name.
func writeGenerated(t *testing.T, name string, r io.Reader) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	f, err := os.Create(p)
	if err == nil {
		_, err = io.Copy(f, r)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCSVBreak: a broken gzip member inside a CSV dump loses the record it
// cut (counted with the member) and reading goes on after it.
func TestCSVBreak(t *testing.T) {
	t.Parallel()
	part := func(from, to int) []byte {
		var b []byte
		for i := from; i < to; i++ {
			b = append(b, "https://h"+strconv.Itoa(i)+".example/robots.txt,200,\"User-agent: *\nDisallow: /"+strconv.Itoa(i)+"\n\"\n"...)
		}
		return b
	}
	p1 := cat([]byte("url,status,body\n"), part(0, 10))
	p2 := part(10, 20)
	mid := bytes.Index(p2, []byte("Disallow")) // the member ends inside a quoted field
	broken := gzipMember(p2[mid:])
	broken[len(broken)/2] ^= 0xff
	data := cat(gzipMember(cat(p1, p2[:mid])), broken, gzipMember(part(20, 30)))
	caps, sum, err := collect(t, Config{}, writeTemp(t, "d.csv.gz", data))
	if err != nil {
		t.Fatal(err)
	}
	if len(caps) != 20 || sum.Errors[ClassContainer] != 1 || sum.Errors[ClassRow] != 1 {
		t.Fatalf("captures %d errors %v", len(caps), sum.Diagnostics)
	}
	for i, c := range caps {
		h := i
		if i >= 10 {
			h = i + 10
		}
		if c.URL != "https://h"+strconv.Itoa(h)+".example/robots.txt" || c.Body != "User-agent: *\nDisallow: /"+strconv.Itoa(h)+"\n" {
			t.Errorf("capture %d: %s %q", i, c.URL, c.Body)
		}
	}
}
