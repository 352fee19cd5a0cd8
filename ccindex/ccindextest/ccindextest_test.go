package ccindextest

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/robotstat/robotstat/ccindex"
)

// TestBuild: a written WARC scans back with offsets at which each record's
// member decodes on its own, the index lists every response once, sorted
// by key, with the crawl's files in its paths list, and the server answers
// a range of a record with exactly its bytes.
func TestBuild(t *testing.T) {
	dir := t.TempDir()
	w := filepath.Join(dir, "CC-MAIN-20240518000000-20240518030000-00000.warc.gz")
	caps := []Capture{
		{URL: "https://www.example.com/robots.txt", Status: 200, Body: "User-agent: *\nDisallow: /x\n"},
		{URL: "http://example.com/robots.txt", Status: 301, Location: "https://www.example.com/robots.txt"},
		{URL: "https://b.example/robots.txt", Status: 404, Body: "<html>nope</html>"},
		{URL: "https://c.example/robots.txt"}, // no response: a metadata record, not indexed
	}
	if err := WriteWARC(w, "CC-MAIN-2024-22", caps); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "mirror")
	c, err := Build(base, "CC-MAIN-2024-22", 2, []string{w}, Options{Files: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rows) != 3 || len(c.Index) != 2 || len(c.WARCs) != 1 {
		t.Fatalf("rows %d, index %v, warcs %v", len(c.Rows), c.Index, c.WARCs)
	}
	data, _ := os.ReadFile(filepath.Join(base, filepath.FromSlash(c.WARCs[0])))
	for _, r := range c.Rows {
		zr, err := gzip.NewReader(bytes.NewReader(data[r.WARCRecordOffset : r.WARCRecordOffset+r.WARCRecordLength]))
		if err != nil {
			t.Fatal(err)
		}
		zr.Multistream(false)
		rec, _ := io.ReadAll(zr)
		if !bytes.Contains(rec, []byte("WARC-Type: response")) || !bytes.Contains(rec, []byte("WARC-Target-URI: "+r.URL+"\r\n")) {
			t.Errorf("%s at %d: %q", r.URL, r.WARCRecordOffset, rec[:min(len(rec), 200)])
		}
	}
	var keys []string
	for _, rel := range c.Index {
		rows, err := parquet.ReadFile[ccindex.Row](filepath.Join(base, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			keys = append(keys, r.URLSurtKey)
		}
	}
	if strings.Join(keys, " ") != "com,example)/robots.txt com,example)/robots.txt example,b)/robots.txt" {
		t.Errorf("keys %q", keys)
	}
	zr, _ := gzip.NewReader(bytes.NewReader(must(os.ReadFile(filepath.Join(base, "crawl-data", "CC-MAIN-2024-22", "cc-index-table.paths.gz")))))
	list, _ := io.ReadAll(zr)
	if got := ccindex.Paths(strings.Split(string(list), "\n"), "CC-MAIN-2024-22", ccindex.SubsetRobotstxt); strings.Join(got, " ") != strings.Join(c.Index, " ") {
		t.Errorf("paths list %q gives %q", list, got)
	}

	srv := NewServer(base)
	defer srv.Close()
	r := c.Rows[1]
	req, _ := http.NewRequest("GET", srv.Base()+r.WARCFilename, nil)
	req.Header.Set("Range", "bytes="+strconv.Itoa(int(r.WARCRecordOffset))+"-"+strconv.Itoa(int(r.WARCRecordOffset+r.WARCRecordLength-1)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusPartialContent || !bytes.Equal(body, data[r.WARCRecordOffset:r.WARCRecordOffset+r.WARCRecordLength]) {
		t.Errorf("range answer %d, %d bytes", resp.StatusCode, len(body))
	}
	srv.Fail(r.WARCFilename, FaultSlowDown)
	resp, _ = http.Get(srv.Base() + r.WARCFilename)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || srv.Requests(r.WARCFilename) != 2 {
		t.Errorf("fault: %d after %d requests", resp.StatusCode, srv.Requests(r.WARCFilename))
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
