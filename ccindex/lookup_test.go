package ccindex_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/robotstat/robotstat/ccindex"
	"github.com/robotstat/robotstat/ccindex/ccindextest"
	"github.com/robotstat/robotstat/internal/weburl"
)

// fileSource is a ccindex.Source over bytes in memory that counts requests.
type fileSource struct {
	data     []byte
	requests atomic.Int64
}

func (f *fileSource) ReadRange(_ context.Context, off, n int64) ([]byte, error) {
	f.requests.Add(1)
	if off < 0 || off+n > int64(len(f.data)) {
		return nil, fmt.Errorf("range %d+%d past %d", off, n, len(f.data))
	}
	return f.data[off : off+n], nil
}

func (f *fileSource) Tail(_ context.Context, n int64) ([]byte, int64, error) {
	f.requests.Add(1)
	size := int64(len(f.data))
	return f.data[max(0, size-n):], size, nil
}

// syntheticRows is an index of n hosts with one to three captures each,
// www. and port variants, subdomains and redirect targets, in no order.
func syntheticRows(n int) []ccindex.Row {
	var rows []ccindex.Row
	t0 := time.Date(2024, 5, 18, 0, 0, 0, 0, time.UTC)
	add := func(u string, status int16) {
		rows = append(rows, ccindex.Row{URLSurtKey: ccindex.SURT(u), URL: u, URLHostName: weburl.Host(u), URLProtocol: "https", URLPath: "/robots.txt",
			FetchTime: t0.Add(time.Duration(len(rows)) * time.Second), FetchStatus: status,
			WARCFilename:     fmt.Sprintf("crawl-data/CC-MAIN-2024-22/segments/1.%d/robotstxt/f%02d.warc.gz", len(rows)%4, len(rows)%17),
			WARCRecordOffset: int32(1000 * len(rows)), WARCRecordLength: int32(500 + len(rows)%300), WARCSegment: "1"})
	}
	for i := range n {
		h := fmt.Sprintf("h%04d.example", i)
		if i >= 10000 {
			h = fmt.Sprintf("h%05d.example", i)
		}
		add("https://"+h+"/robots.txt", 200)
		if i%2 == 0 {
			add("http://"+h+"/robots.txt", 301)
		}
		if i%7 == 0 {
			add("https://www."+h+"/robots.txt", 200)
		}
		if i%11 == 0 {
			add("http://"+h+":8080/robots.txt", 404)
		}
		if i%5 == 0 {
			add("https://blog."+h+"/robots.txt", 200)
			add("https://"+h+"/moved/robots.txt", 200)
		}
	}
	return rows
}

// want is what a lookup must find, by brute force over the rows.
func want(rows []ccindex.Row, hosts, urls []string) []string {
	var out []string
	for _, r := range rows {
		if slices.Contains(hosts, weburl.Host(r.URL)) || slices.Contains(urls, r.URL) {
			out = append(out, fmt.Sprintf("%s %s %d %d", r.URL, r.WARCFilename, r.WARCRecordOffset, r.WARCRecordLength))
		}
	}
	slices.Sort(out)
	return out
}

// TestLookup: over an index of 3 files, row groups of 400 rows and small
// pages, a lookup of some hosts and URLs finds exactly the rows a scan of
// every row finds, whether the files have statistics and a page index,
// one of them, only deprecated statistics, or neither; with both it reads
// a small part of each file.
func TestLookup(t *testing.T) {
	rows := syntheticRows(12000)
	hosts := []string{"h0000.example", "h0007.example", "www.h0014.example", "h0011.example", "h0500.example", "h11999.example", "absent.example", "h0010.example"}
	urls := []string{"https://h0005.example/moved/robots.txt", "https://blog.h0020.example/robots.txt", "https://nowhere.example/robots.txt"}
	expect := want(rows, hosts, urls)
	if len(expect) < 12 {
		t.Fatalf("only %d expected rows", len(expect))
	}
	q := ccindex.NewQuery(hosts, urls)
	reads := map[string]int64{}
	for _, tc := range []struct {
		name string
		o    ccindextest.Options
		// all: every row group's key chunk is read
		all, pageIndex bool
	}{
		{"stats_and_page_index", ccindextest.Options{}, false, true},
		{"stats_only", ccindextest.Options{NoPageIndex: true}, false, false},
		{"page_index_only", ccindextest.Options{NoStatistics: true}, true, true},
		{"deprecated_stats_only", ccindextest.Options{DeprecatedOnly: true, NoPageIndex: true}, false, false},
		{"deprecated_stats_before_parquet_mr_1_8", ccindextest.Options{DeprecatedOnly: true, NoPageIndex: true, CreatedBy: "1.7.0"}, true, false},
		{"neither", ccindextest.Options{NoStatistics: true, NoPageIndex: true}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			tc.o.Files, tc.o.RowGroupRows, tc.o.PageBytes, tc.o.DictBytes = 3, 4000, 4096, 16<<10
			files, err := ccindextest.WriteIndex(base, "CC-MAIN-2024-22", rows, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			var read, size int64
			var groups, groupsRead int
			for _, rel := range files {
				data, err := os.ReadFile(filepath.Join(base, filepath.FromSlash(rel)))
				if err != nil {
					t.Fatal(err)
				}
				src := &fileSource{data: data}
				tail, n, _ := src.Tail(context.Background(), ccindex.TailSize)
				rr := ccindex.NewRangeReader(context.Background(), src, n, tail)
				ms, st, err := ccindex.Lookup(context.Background(), rr, n, q)
				if err != nil {
					t.Fatal(err)
				}
				if (st.RowGroupsRead > 0 && st.PageIndex != tc.pageIndex) || (tc.all && st.RowGroupsRead != st.RowGroups) {
					t.Errorf("%s: %+v", rel, st)
				}
				groups += st.RowGroups
				groupsRead += st.RowGroupsRead
				for i, m := range ms {
					if i > 0 && m.Key < ms[i-1].Key {
						t.Errorf("%s: matches out of key order: %q after %q", rel, m.Key, ms[i-1].Key)
					}
					got = append(got, fmt.Sprintf("%s %s %d %d", m.URL, m.File, m.Offset, m.Length))
				}
				_, b := rr.Stats()
				read += b + int64(len(tail))
				if tc.pageIndex && !tc.all && st.PagesRead*4 > st.Pages {
					t.Errorf("%s: read %d of %d pages", rel, st.PagesRead, st.Pages)
				}
				size += n
			}
			slices.Sort(got)
			if !slices.Equal(got, expect) {
				t.Errorf("found %d rows, want %d:\n got %q\nwant %q", len(got), len(expect), got, expect)
			}
			if !tc.all && groupsRead >= groups {
				t.Errorf("statistics pruned no row group (%d of %d read)", groupsRead, groups)
			}
			reads[tc.name] = read
			t.Logf("read %d of %d bytes", read, size)
		})
	}
	if reads["stats_and_page_index"] >= reads["neither"] || reads["stats_and_page_index"] >= reads["stats_only"] {
		t.Errorf("bytes read: %v; want the fewest with statistics and page index", reads)
	}
}

// TestLookupSchema: a Parquet file without the index's columns is
// ErrSchema, and garbage is an error, not a panic.
func TestLookupSchema(t *testing.T) {
	type other struct {
		URL string `parquet:"url"`
	}
	p := filepath.Join(t.TempDir(), "x.parquet")
	if err := parquet.WriteFile(p, []other{{"https://example.com/"}}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	q := ccindex.NewQuery([]string{"example.com"}, nil)
	src := &fileSource{data: data}
	if _, _, err := ccindex.Lookup(context.Background(), ccindex.NewRangeReader(context.Background(), src, int64(len(data)), nil), int64(len(data)), q); !errors.Is(err, ccindex.ErrSchema) {
		t.Errorf("other columns: %v, want ErrSchema", err)
	}
	junk := []byte("<html>not found</html>")
	src = &fileSource{data: junk}
	if _, _, err := ccindex.Lookup(context.Background(), ccindex.NewRangeReader(context.Background(), src, int64(len(junk)), nil), int64(len(junk)), q); err == nil {
		t.Error("an HTML page read as an index file")
	}
}

// TestRangeReaderCoalesces: prefetched ranges closer than Gap go in one
// request, reads of cached bytes make none, and a read that misses
// fetches at least MinFetch.
func TestRangeReaderCoalesces(t *testing.T) {
	data := make([]byte, 4<<20)
	for i := range data {
		data[i] = byte(i * 7)
	}
	src := &fileSource{data: data}
	rr := ccindex.NewRangeReader(context.Background(), src, int64(len(data)), nil)
	if err := rr.Prefetch([][2]int64{{1000, 3000}, {40000, 100}, {90000, 5000}, {3 << 20, 10}}); err != nil {
		t.Fatal(err)
	}
	if n := src.requests.Load(); n != 2 {
		t.Errorf("prefetch of 3 near ranges and a far one: %d requests, want 2", n)
	}
	buf := make([]byte, 5000)
	if _, err := rr.ReadAt(buf, 90000); err != nil || buf[0] != data[90000] || buf[4999] != data[94999] {
		t.Fatalf("cached read: %v", err)
	}
	if n := src.requests.Load(); n != 2 {
		t.Errorf("cached read made a request (%d)", n)
	}
	if _, err := rr.ReadAt(buf[:100], 1<<20); err != nil || buf[0] != data[1<<20] {
		t.Fatal(err)
	}
	if _, err := rr.ReadAt(buf[:100], 1<<20+ccindex.MinFetch-200); err != nil {
		t.Fatal(err)
	}
	if n := src.requests.Load(); n != 3 {
		t.Errorf("two reads within MinFetch of each other: %d requests, want 3", n)
	}
	if req, b := rr.Stats(); req != 3 || b < ccindex.MinFetch {
		t.Errorf("stats %d requests, %d bytes", req, b)
	}
	tail, size, _ := src.Tail(context.Background(), ccindex.TailSize)
	rr = ccindex.NewRangeReader(context.Background(), src, size, tail)
	before := src.requests.Load()
	if _, err := rr.ReadAt(buf[:8], size-8); err != nil || buf[7] != data[size-1] {
		t.Fatal(err)
	}
	if src.requests.Load() != before {
		t.Error("a read of the tail made a request")
	}
}
