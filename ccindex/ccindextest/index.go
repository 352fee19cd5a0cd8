package ccindextest

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
	"github.com/robotstat/robotstat/ccindex"
	"github.com/robotstat/robotstat/internal/weburl"
	"golang.org/x/net/publicsuffix"
)

// Rows returns the index rows of a WARC file's response records, as Common
// Crawl's indexer makes them; rel is the file's path below the crawl's base
// (crawl-data/CRAWL/segments/SEG/robotstxt/NAME.warc.gz), the rows'
// warc_filename.
func Rows(recs []Record, rel string) []ccindex.Row {
	var out []ccindex.Row
	seg := ""
	if _, rest, ok := strings.Cut(rel, "/segments/"); ok {
		seg, _, _ = strings.Cut(rest, "/")
	}
	for _, r := range recs {
		if r.Type != "response" {
			continue
		}
		scheme, host, port := weburl.Split(r.URL)
		row := ccindex.Row{
			URLSurtKey: ccindex.SURT(r.URL), URL: r.URL, URLHostName: host, URLProtocol: scheme,
			FetchTime: r.Date, FetchStatus: int16(r.Status),
			WARCFilename: rel, WARCRecordOffset: int32(r.Offset), WARCRecordLength: int32(r.Length), WARCSegment: seg,
		}
		labels := strings.Split(host, ".")
		parts := []**string{&row.URLHostTLD, &row.URLHost2ndLastPart, &row.URLHost3rdLastPart, &row.URLHost4thLastPart, &row.URLHost5thLastPart}
		for i, p := range parts {
			if i < len(labels) {
				*p = ptr(labels[len(labels)-1-i])
			}
		}
		if d, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
			row.URLHostRegisteredDomain, row.URLHostPrivateDomain = ptr(d), ptr(d)
			suffix, _ := publicsuffix.PublicSuffix(host)
			row.URLHostRegistrySuffix, row.URLHostPrivateSuffix = ptr(suffix), ptr(suffix)
		}
		rev := slices.Clone(labels)
		slices.Reverse(rev)
		row.URLHostNameReversed = ptr(strings.Join(rev, "."))
		if n, err := strconv.Atoi(port); err == nil {
			row.URLPort = ptr(int32(n))
		}
		_, rest, _ := strings.Cut(r.URL, "://")
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			p, q, hasQ := strings.Cut(rest[i:], "?")
			row.URLPath = p
			if hasQ {
				row.URLQuery = ptr(q)
			}
		} else {
			row.URLPath = "/"
		}
		if r.Location != "" {
			row.FetchRedirect = ptr(weburl.ResolveLocation(r.URL, r.Location))
		}
		if r.Digest != "" {
			row.ContentDigest = ptr(r.Digest)
		}
		if r.ContentType != "" {
			mt, _, _ := strings.Cut(r.ContentType, ";")
			row.ContentMimeType = ptr(strings.TrimSpace(mt))
		}
		if r.Identified != "" {
			row.ContentMimeDetected = ptr(r.Identified)
		}
		if r.Truncated != "" {
			row.ContentTruncated = ptr(r.Truncated)
		}
		out = append(out, row)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// Options shape an index: how many files of the robotstxt subset, how many
// rows a row group and a page holds at most, and what metadata the files
// keep. The zero value is one file, one row group, parquet-go's pages,
// with statistics and page index, as parquet-mr writes them today.
type Options struct {
	Files        int // files of the robotstxt subset; default 1
	RowGroupRows int // rows per row group; default all
	PageBytes    int // page buffer size in bytes; default parquet-go's
	// DictBytes bounds a column chunk's dictionary, past which its pages
	// are plain; default 1 MiB, parquet-mr's parquet.dictionary.page.size.
	DictBytes int
	// NoStatistics removes the row groups' min/max statistics (as files
	// written before parquet-mr 1.10 lack min_value/max_value);
	// DeprecatedOnly keeps them in the deprecated min/max fields only.
	NoStatistics, DeprecatedOnly bool
	// NoPageIndex removes the column and offset indexes (parquet-mr before
	// 1.11).
	NoPageIndex bool
	// CreatedBy is the parquet-mr version the files say wrote them
	// (default 1.13.1, 1.8.3 with DeprecatedOnly).
	CreatedBy string
}

// WriteIndex writes rows as crawl's robotstxt index under base: sorted by
// url_surtkey (then fetch time, file and offset, as the CDX lines they
// come from sort), cut into o.Files files of consecutive keys, and lists
// them in crawl-data/CRAWL/cc-index-table.paths.gz, after a subset=warc
// file and a subset=crawldiagnostics one whose rows name files that do
// not exist (a reader of the robotstxt subset must not open them). It
// returns the robotstxt files' paths below base, in listed order.
func WriteIndex(base, crawl string, rows []ccindex.Row, o Options) ([]string, error) {
	rows = slices.Clone(rows)
	slices.SortStableFunc(rows, func(a, b ccindex.Row) int {
		if c := strings.Compare(a.URLSurtKey, b.URLSurtKey); c != 0 {
			return c
		}
		if c := a.FetchTime.Compare(b.FetchTime); c != 0 {
			return c
		}
		if c := strings.Compare(a.WARCFilename, b.WARCFilename); c != 0 {
			return c
		}
		return int(a.WARCRecordOffset - b.WARCRecordOffset)
	})
	files := max(o.Files, 1)
	var listed, robots []string
	decoy := func(subset string) error {
		rel := path.Join(ccindex.SubsetDir(crawl, subset), "part-00000-decoy.c000.zstd.parquet")
		listed = append(listed, rel)
		r := ccindex.Row{URLSurtKey: "com,example)/", URL: "https://example.com/", URLHostName: "example.com", URLProtocol: "https",
			URLPath: "/", FetchStatus: 200, WARCFilename: "crawl-data/" + crawl + "/segments/0/" + subset + "/missing.warc.gz", WARCSegment: "0"}
		return writeParquet(filepath.Join(base, filepath.FromSlash(rel)), []ccindex.Row{r}, Options{})
	}
	if err := decoy(ccindex.SubsetWARC); err != nil {
		return nil, err
	}
	if err := decoy(ccindex.SubsetCrawlDiagnostics); err != nil {
		return nil, err
	}
	for i := range files {
		lo, hi := i*len(rows)/files, (i+1)*len(rows)/files
		rel := path.Join(ccindex.SubsetDir(crawl, ccindex.SubsetRobotstxt), fmt.Sprintf("part-%05d-0d1e2f3a.c000.zstd.parquet", i))
		if err := writeParquet(filepath.Join(base, filepath.FromSlash(rel)), rows[lo:hi], o); err != nil {
			return nil, err
		}
		listed = append(listed, rel)
		robots = append(robots, rel)
	}
	if err := writeList(filepath.Join(base, "crawl-data", crawl, "cc-index-table.paths.gz"), listed); err != nil {
		return nil, err
	}
	return robots, nil
}

// writeList writes lines as a gzipped list.
func writeList(p string, lines []string) error {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(strings.Join(lines, "\n") + "\n"))
	zw.Close()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b.Bytes(), 0o644)
}

// writeParquet writes one index file, zstd-compressed as Common Crawl's
// recent ones are, and then strips what o says from its footer.
func writeParquet(p string, rows []ccindex.Row, o Options) error {
	var b bytes.Buffer
	version := "1.13.1"
	if o.DeprecatedOnly {
		version = "1.8.3" // Spark 2.3's, which wrote only the deprecated min and max
	}
	if o.CreatedBy != "" {
		version = o.CreatedBy
	}
	opts := []parquet.WriterOption{parquet.Compression(&zstd.Codec{Level: zstd.SpeedDefault}), parquet.CreatedBy("parquet-mr", version, "ccindextest")}
	if o.RowGroupRows > 0 {
		opts = append(opts, parquet.MaxRowsPerRowGroup(int64(o.RowGroupRows)))
	}
	if o.PageBytes > 0 {
		opts = append(opts, parquet.PageBufferSize(o.PageBytes))
	}
	opts = append(opts, parquet.DictionaryMaxBytes(int64(cmp.Or(o.DictBytes, 1<<20))))
	w := parquet.NewGenericWriter[ccindex.Row](&b, opts...)
	for lo := 0; lo < len(rows); lo += 1000 {
		if _, err := w.Write(rows[lo:min(lo+1000, len(rows))]); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	data := b.Bytes()
	if o.NoStatistics || o.DeprecatedOnly || o.NoPageIndex {
		var err error
		if data, err = rewriteFooter(data, o); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

// rewriteFooter strips statistics or the page index from a file's
// footer; the page index's bytes stay where they are, unreferenced.
func rewriteFooter(data []byte, o Options) ([]byte, error) {
	n := len(data)
	if n < 12 || string(data[n-4:]) != "PAR1" {
		return nil, fmt.Errorf("not a parquet file")
	}
	size := int(uint32(data[n-8]) | uint32(data[n-7])<<8 | uint32(data[n-6])<<16 | uint32(data[n-5])<<24)
	start := n - 8 - size
	var meta format.FileMetaData
	proto := &thrift.CompactProtocol{}
	if err := thrift.Unmarshal(proto, data[start:n-8], &meta); err != nil {
		return nil, err
	}
	for i := range meta.RowGroups {
		for j := range meta.RowGroups[i].Columns {
			c := &meta.RowGroups[i].Columns[j]
			s := &c.MetaData.Statistics
			switch {
			case o.NoStatistics:
				s.MinValue, s.MaxValue, s.Min, s.Max = nil, nil, nil, nil
			case o.DeprecatedOnly:
				s.Min, s.Max, s.MinValue, s.MaxValue = s.MinValue, s.MaxValue, nil, nil
			}
			if o.NoPageIndex {
				c.ColumnIndexOffset, c.ColumnIndexLength, c.OffsetIndexOffset, c.OffsetIndexLength = 0, 0, 0, 0
			}
		}
	}
	footer, err := thrift.Marshal(proto, &meta)
	if err != nil {
		return nil, err
	}
	out := append(slices.Clone(data[:start]), footer...)
	l := len(footer)
	out = append(out, byte(l), byte(l>>8), byte(l>>16), byte(l>>24), 'P', 'A', 'R', '1')
	return out, nil
}

// Mirror copies WARC files into base as Common Crawl lays out crawl's
// robotstxt subset, spread over segs segments
// (crawl-data/CRAWL/segments/SEG/robotstxt/NAME), writes the crawl's
// robotstxt.paths.gz, and returns the files' paths below base in listed
// order.
func Mirror(base, crawl string, segs int, warcs []string) ([]string, error) {
	segs = max(segs, 1)
	var rels []string
	for i, f := range warcs {
		rel := fmt.Sprintf("crawl-data/%s/segments/17157154%05d.%d/robotstxt/%s", crawl, i%segs, i%segs, filepath.Base(f))
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		p := filepath.Join(base, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return nil, err
		}
		rels = append(rels, rel)
	}
	slices.Sort(rels)
	return rels, writeList(filepath.Join(base, "crawl-data", crawl, "robotstxt.paths.gz"), rels)
}

// Crawl is what Build laid out.
type Crawl struct {
	WARCs []string // WARC paths below base, listed order
	Index []string // robotstxt index files below base
	Rows  []ccindex.Row
}

// Build lays warcs out under base as crawl (Mirror) and writes its index
// (WriteIndex) from the records ScanWARC finds in the copies.
func Build(base, crawl string, segs int, warcs []string, o Options) (Crawl, error) {
	var c Crawl
	var err error
	if c.WARCs, err = Mirror(base, crawl, segs, warcs); err != nil {
		return c, err
	}
	for _, rel := range c.WARCs {
		recs, err := ScanWARC(filepath.Join(base, filepath.FromSlash(rel)))
		if err != nil {
			return c, err
		}
		c.Rows = append(c.Rows, Rows(recs, rel)...)
	}
	c.Index, err = WriteIndex(base, crawl, c.Rows, o)
	return c, err
}
