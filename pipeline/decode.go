package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/robotstat/robotstat/internal/ascii"
	"github.com/robotstat/robotstat/internal/textesc"
	"github.com/robotstat/robotstat/warc"
)

// decoder reads one input at a time in its own goroutine. Its buffers are
// pooled across inputs.
type decoder struct {
	r   *runner
	src *source
	s   stream
	wr  *warc.Reader
	buf []byte
	tbr *bufio.Reader // tar's reader over s, for resynchronising
	ts  tarSource
	tl  tarLinks // bodies a later hard link entry may name
	cr  csvReader
	cur *job // the batch being filled
	// stop is the first data error Config.Strict turns into a run failure
	// that was raised inside a reader callback (the stream's or the WARC
	// reader's report), where it cannot be returned; the read loops check
	// it.
	stop error
}

// dataErr counts a data error of the current input and keeps the first one
// that must stop the run (Config.Strict) in d.stop.
func (d *decoder) dataErr(off, rec int64, class Class, err error, ex []byte) {
	if e := d.src.dataErr(off, rec, class, err, ex); e != nil && d.stop == nil {
		d.stop = e
	}
}

// warcErr counts a data error the WARC reader reported: one between
// records (record -1: garbage, not a WARC) is the container's, one inside a
// record the record's.
func (d *decoder) warcErr(off, rec int64, err error, ex []byte) {
	class := ClassRecord
	if rec < 0 {
		class = ClassContainer
	}
	d.dataErr(off, rec, class, err, ex)
}

// open starts reading the (possibly compressed) input rc: its container
// errors are counted through dataErr.
func (d *decoder) open(ctx context.Context, rc io.Reader) error {
	d.stop = nil
	d.s.ctx = ctx
	d.s.report = func(off int64, err error, ex []byte) { d.dataErr(off, -1, ClassContainer, err, ex) }
	d.s.zstdWindow = d.r.cfg.ZstdWindow
	if err := d.s.reset(rc, &d.r.bytesRead); err != nil {
		return d.src.dataErr(0, -1, ClassContainer, err, nil)
	}
	return nil
}

// slot returns a record to fill in the current batch, waiting for a free
// batch when there is none.
func (d *decoder) slot(ctx context.Context) (*rec, error) {
	if d.cur == nil {
		j, err := d.r.getJob(ctx)
		if err != nil {
			return nil, err
		}
		d.cur = j
	}
	return d.cur.slot(), nil
}

// unslot gives back the last slot (its record could not be read).
func (d *decoder) unslot() { d.cur.n-- }

// commit accounts a filled slot and hands the batch on when it is full.
func (d *decoder) commit(ctx context.Context, n int) error {
	d.cur.bytes += n
	if d.cur.full() {
		return d.flush(ctx)
	}
	return nil
}

// flush hands the current batch to the workers, also at the end of an
// input and when the decoder stops on an error: nothing read is lost.
func (d *decoder) flush(ctx context.Context) error {
	j := d.cur
	if j == nil {
		return nil
	}
	d.cur = nil
	if j.n == 0 {
		d.r.free <- j
		return nil
	}
	d.src.unit.refs.Add(1) // the batch's; the worker that consumes it releases it
	return d.r.send(ctx, j)
}

var decoderPool = sync.Pool{New: func() any { return &decoder{wr: warc.NewReader(nil)} }}

// warcinfoLimit caps the warcinfo block read for isPartOf.
const warcinfoLimit = 64 << 10

// warcReader returns the decoder's WARC reader, reset to read its
// stream, its errors located in the input and reported as the decoder's.
func (d *decoder) warcReader() *warc.Reader {
	wr := d.wr
	wr.Reset(&d.s)
	wr.Locate = d.s.offsetAt
	wr.Boundary = d.s.boundaryAfter
	wr.Report = d.warcErr
	return wr
}

// warc reads a WARC input: records are framed here, response and resource
// blocks that count go to the workers as they are stored.
func (d *decoder) warc(ctx context.Context, rc io.Reader) error {
	r, src := d.r, d.src
	if err := d.open(ctx, rc); err != nil {
		return err
	}
	wr := d.warcReader()
	crawl := src.crawl
	all := r.cfg.Responses == ResponsesAll || (r.cfg.Responses == ResponsesAuto && isRobotstxtSource(src.name))
	// Records counts every record header found, malformed ones included.
	defer func() { r.records.Add(wr.Index() + 1); src.records.Add(wr.Index() + 1) }()
	for wr.Next() {
		if d.stop != nil {
			return d.stop
		}
		if wr.Index()&255 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		h := wr.Header()
		switch {
		case bytes.Equal(h.Type(), []byte("response")), bytes.Equal(h.Type(), []byte("resource")):
			if !all && !isRobotsPath(h.TargetURI()) {
				r.otherResp.Add(1)
				continue
			}
			j, err := d.readWARC(ctx, h, crawl, wr.Index())
			if err != nil {
				return err
			}
			if j == nil {
				continue
			}
			if d.stop != nil {
				return d.stop
			}
			if err := d.commit(ctx, len(j.block)); err != nil {
				return err
			}
		case bytes.Equal(h.Type(), []byte("metadata")):
			// A fetch that got no HTTP response, as robotstat scan records
			// it (package scan): application/warc-fields with a negative
			// fetchStatus (Heritrix's crawl-log codes). It becomes a
			// capture with that status and no body, which RFC 9309 section
			// 2.3.1.4 reads as unreachable. Other metadata is read past.
			if !ascii.HasPrefixFold(h.ContentType(), "application/warc-fields") || (!all && !isRobotsPath(h.TargetURI())) {
				continue
			}
			var err error
			d.buf, _, err = wr.ReadBlock(d.buf[:0], warcinfoLimit)
			if err != nil {
				return err
			}
			v := warc.FieldValue(d.buf, "fetchStatus")
			if len(v) < 2 || v[0] != '-' {
				continue
			}
			n, ok := ascii.ParseDecimal(v[1:])
			if !ok || n == 0 {
				continue
			}
			j, err := d.slot(ctx)
			if err != nil {
				return err
			}
			j.kind, j.src, j.crawl, j.offset, j.index = jobDirect, src, crawl, wr.Offset(), wr.Index()
			j.url, j.status = string(h.TargetURI()), int(-n)
			j.time, _ = parseTime(h.Date())
			j.block, j.stored, j.cut = j.block[:0], 0, false
			if err := d.commit(ctx, 0); err != nil {
				return err
			}
		case bytes.Equal(h.Type(), []byte("warcinfo")):
			if src.crawl != "" && !src.byPath {
				continue // named by the user: the header is not asked
			}
			var err error
			d.buf, _, err = wr.ReadBlock(d.buf[:0], warcinfoLimit)
			if err != nil {
				return err
			}
			if wr.Overrun() {
				continue
			}
			if src.byPath {
				// The path wins (it is what the user asked for: a mirror's
				// crawl-data/CC-MAIN-YYYY-WW/ folder), but a header that
				// says another crawl is never passed over in silence.
				if v := warc.FieldValue(d.buf, "isPartOf"); len(v) > 0 && string(v) != crawl {
					if e := d.src.dataErr(wr.Offset(), wr.Index(), ClassCrawl, fmt.Errorf("%w: the path names %s (crawl-data/%s/), the warcinfo isPartOf %q; its captures are filed under %s (the path wins)",
						ErrCrawlMismatch, crawl, crawl, textesc.Data(string(v[:min(len(v), maxExcerpt)])), crawl), v[:min(len(v), maxExcerpt)]); e != nil {
						return e
					}
				}
				continue
			}
			if v := warc.FieldValue(d.buf, "isPartOf"); len(v) > 0 && string(v) != crawl {
				crawl = string(v)
				if why := crawlNameProblem(crawl); why != "" {
					// A crawl name is a partition folder and a column:
					// its bad bytes are written as %XX (textesc.Data),
					// and the record says so.
					crawl = escapeCrawl(crawl)
					if e := d.src.dataErr(wr.Offset(), wr.Index(), ClassRecord, fmt.Errorf("warcinfo isPartOf %s: the crawl is named %q", why, crawl), v[:min(len(v), maxExcerpt)]); e != nil {
						return e
					}
				}
			}
		}
	}
	if d.stop != nil {
		return d.stop
	}
	return wr.Err()
}

// crawlNameProblem says why name cannot be a crawl name as it is, or "":
// it must be UTF-8 (a Parquet string, a partition folder DuckDB decodes)
// without control characters (a folder name, a line of a message).
func crawlNameProblem(name string) string {
	if !utf8.ValidString(name) {
		return "is not UTF-8"
	}
	if strings.IndexFunc(name, unicode.IsControl) >= 0 {
		return "holds control characters"
	}
	return ""
}

// escapeCrawl writes the bytes of name that are not UTF-8, and its
// control characters, as %XX.
func escapeCrawl(name string) string {
	name = textesc.Data(name)
	var b strings.Builder
	for _, r := range name {
		if unicode.IsControl(r) {
			for _, c := range []byte(string(r)) {
				b.WriteString("%" + strings.ToUpper(strconv.FormatUint(uint64(c)|0x100, 16)[1:]))
			}
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// readWARC reads the response or resource record whose header h the WARC
// reader is at into a slot of the current batch, as a capture of crawl
// numbered index in its source: nil (the slot given back) when its block
// ran into the next record (Overrun, reported). The caller commits the
// slot; until then it may read the record's block.
func (d *decoder) readWARC(ctx context.Context, h *warc.Header, crawl string, index int64) (*rec, error) {
	wr := d.wr
	j, err := d.slot(ctx)
	if err != nil {
		return nil, err
	}
	j.kind, j.src, j.crawl, j.offset, j.index = jobWARC, d.src, crawl, wr.Offset(), index
	h.CopyTo(&j.hdr)
	j.resource = bytes.Equal(h.Type(), []byte("resource"))
	j.block, j.stored, err = wr.ReadBlock(j.block[:0], d.r.cfg.RecordLimit)
	j.cut = wr.Truncated()
	if err != nil || wr.Overrun() {
		d.unslot()
		return nil, err
	}
	return j, nil
}
