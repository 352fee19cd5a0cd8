package pipeline

import (
	"context"
	"time"

	"github.com/robotstat/robotstat/internal/ascii"
	"github.com/robotstat/robotstat/record"
	"github.com/robotstat/robotstat/warc"
)

type jobKind uint8

const (
	jobWARC   jobKind = iota // block holds an HTTP response (or a resource) as stored
	jobDirect                // fields are set; block holds the body, already cut at BodyLimit
)

// rec is one record on its way from a decoder to a worker; its buffers are
// reused.
type rec struct {
	kind   jobKind
	src    *source
	crawl  string
	offset int64
	index  int64

	// WARC: the record's header, copied out of the reader.
	hdr      warc.Header
	resource bool // a resource record: no HTTP header expected

	block  []byte
	stored int64 // block (or body) length as stored; > len(block) when cut
	cut    bool  // the archive holds less than the record says

	// direct
	url    string
	status int
	time   time.Time
}

// job carries a batch of records from a decoder to a worker. Jobs circulate
// between runner.free and runner.jobs with their buffers. Batching makes
// the channel hand-off and the goroutine wake-up cost per batch, not per
// capture: at tens of thousands of captures per second per core, a
// wake-up per capture cost more CPU than parsing the HTTP headers did.
type job struct {
	recs  []rec
	n     int // records in use
	bytes int // their block bytes
}

// Batch bounds: enough records to amortise a hand-off, few enough bytes
// that the jobsPerWorker batches in flight stay small.
const (
	batchRecords = 32
	batchBytes   = 256 << 10
)

// keepBlock is the largest record buffer a job keeps for reuse. Every
// record slot of every job in flight (Workers × jobsPerWorker × batchRecords
// of them) kept the largest block it had ever held, up to RecordLimit (2
// MiB): as a run went on, more slots met one of the rare large robots.txt
// and memory grew with the input, to 102 MiB of block buffers after 300k
// Common-Crawl-shaped captures with 2 workers. Capture bodies are mostly a
// few KiB; a larger one now gets a buffer of its own that is dropped after
// use.
const keepBlock = 64 << 10

// trim drops the record buffers larger than keepBlock.
func (j *job) trim() {
	for i := range j.recs[:j.n] {
		if cap(j.recs[i].block) > keepBlock {
			j.recs[i].block = nil
		}
	}
}

// slot returns the next free record of the batch.
func (j *job) slot() *rec {
	if j.n == len(j.recs) {
		j.recs = append(j.recs, rec{})
	}
	j.n++
	return &j.recs[j.n-1]
}

func (j *job) full() bool { return j.n >= batchRecords || j.bytes >= batchBytes }

// fail reports a data error of record j, located by its offset, index and
// WARC-Record-ID.
func (j *rec) fail(class Class, err error, ex []byte) error {
	return j.src.report(&ReadError{Source: j.src.name, Path: j.src.path, Offset: j.offset, Record: j.index,
		RecordID: string(j.hdr.RecordID()), Class: class, Err: err, Excerpt: excerpt(ex)})
}

// workerState is what one worker reuses from capture to capture.
type workerState struct {
	id  int
	c   record.Capture
	hh  warc.HTTPHeader
	dec payloadDecoder
	sc  []byte // string fields, converted to one string per capture
}

// work is one worker: it turns jobs into captures until the jobs channel
// closes or the run is cancelled.
func (r *runner) work(ctx context.Context, id int) error {
	w := &workerState{id: id}
	for {
		select {
		case j, ok := <-r.jobs:
			if !ok {
				return nil
			}
			var err error
			for i := 0; i < j.n && err == nil; i++ {
				err = r.process(w, &j.recs[i])
			}
			u := j.recs[0].src.unit // a batch holds one input's records
			j.trim()
			r.free <- j
			if err != nil {
				return err
			}
			if r.cfg.BatchDone != nil {
				if err := r.cfg.BatchDone(w.id, u.Unit); err != nil {
					return err
				}
			}
			if err := r.release(u); err != nil {
				return err
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (r *runner) process(w *workerState, j *rec) error {
	c := &w.c
	*c = record.Capture{Source: j.src.name, Path: j.src.path, Offset: j.offset, Index: j.index, Crawl: j.crawl}
	if j.kind == jobDirect {
		c.URL, c.Status, c.FetchTime = j.url, j.status, j.time
		c.RobotsPath = isRobotsPath([]byte(j.url))
		c.Body = j.block // direct cut it at BodyLimit
		c.BodyLen = j.stored
		c.BodyTruncated = j.cut
		r.captures.Add(1)
		j.src.unit.captures.Add(1)
		return r.consume(w.id, c)
	}

	block := j.block
	var hh *warc.HTTPHeader
	payload := block
	stored := j.stored
	if !j.resource {
		// The parser decides whether the block is an HTTP message (it skips
		// the blank lines some writers put before the status line). A block
		// that is not one is the body itself, unless the record says it is
		// HTTP or it starts like one.
		hh = &w.hh
		n, err := warc.ParseHTTPHeader(block, hh)
		switch err {
		case nil:
		case ErrHTTPHeaderEnd:
			if j.stored > int64(len(block)) {
				return j.fail(ClassHTTP, ErrHTTPTooLong, block)
			}
			// A header that runs to the end of the block: the response
			// had no body (or lost it); keep what the header says.
			if err := j.fail(ClassHTTP, err, nil); err != nil {
				return err
			}
		case ErrStatusLine:
			if ascii.HasPrefixFold(block, "HTTP/") || ascii.HasPrefixFold(j.hdr.ContentType(), "application/http") {
				return j.fail(ClassHTTP, err, block)
			}
			hh, n = nil, 0
		default:
			return j.fail(ClassHTTP, err, block)
		}
		payload = block[n:]
		stored -= int64(n)
	}

	pl := w.dec.decode(hh, payload, stored, r.cfg.BodyLimit)
	if pl.err != nil {
		if err := j.fail(ClassPayload, pl.err, nil); err != nil {
			return err
		}
	}

	// All string fields in one allocation.
	h := &j.hdr
	sc := w.sc[:0]
	var pos [numStrings][2]int
	add := func(k int, v []byte) {
		pos[k][0] = len(sc)
		sc = append(sc, v...)
		pos[k][1] = len(sc)
	}
	add(sURL, h.TargetURI())
	add(sRecordID, h.RecordID())
	add(sIP, h.IPAddress())
	add(sDigest, h.PayloadDigest())
	add(sTruncated, h.Truncated())
	add(sIdentified, h.IdentifiedType())
	if hh != nil {
		add(sReason, hh.Reason)
		add(sContentType, hh.ContentType)
		add(sLocation, hh.Location)
	} else {
		add(sContentType, h.ContentType()) // a resource's own media type
	}
	s := string(sc)
	w.sc = sc
	get := func(k int) string { return s[pos[k][0]:pos[k][1]] }
	c.URL = get(sURL)
	c.RobotsPath = isRobotsPath(h.TargetURI())
	c.RecordID = get(sRecordID)
	c.IP = get(sIP)
	c.PayloadDigest = get(sDigest)
	c.Truncated = get(sTruncated)
	c.IdentifiedType = get(sIdentified)
	c.FetchTime, _ = parseTime(h.Date())
	c.ContentType = get(sContentType)
	if hh != nil {
		c.Status = hh.Status
		c.Reason = get(sReason)
		c.Location = get(sLocation)
	}
	c.Body, c.BodyLen = pl.body, pl.n
	short := hh != nil && hh.ContentLength > pl.n && identity(hh) && hasContent(hh.Status)
	c.BodyTruncated = j.cut || c.Truncated != "" || pl.truncated || short
	if short {
		// The archive holds less than the server sent (WARC-Truncated:
		// length, a cut record): the payload's true size is what its
		// Content-Length says, as warcio and pywb take it, not what was
		// kept. A coded payload's decoded size is not known; BodyLen
		// stays what was decoded and BodyTruncated says it is short.
		c.BodyLen = hh.ContentLength
	}
	if n, ok := ascii.ParseDecimal(h.PayloadLength()); ok && c.BodyTruncated && n > c.BodyLen {
		// robotstat scan's count of a payload it kept part of (a
		// chunked one has no Content-Length to say it).
		c.BodyLen = n
	}
	r.captures.Add(1)
	j.src.unit.captures.Add(1)
	return r.consume(w.id, c)
}

// The string fields of a capture, cut from its one string.
const (
	sURL = iota
	sRecordID
	sIP
	sDigest
	sTruncated
	sIdentified
	sReason
	sContentType
	sLocation
	numStrings
)

// identity reports a payload stored without codings to remove, so that its
// Content-Length can be compared with what the archive holds.
func identity(h *warc.HTTPHeader) bool {
	return h.Crawler || (h.TransferEncoding == nil && (h.ContentEncoding == nil || ascii.EqualFold(lastToken(h.ContentEncoding), "identity")))
}

// hasContent reports a status whose response carries content (RFC 9110
// section 6.4.1: not 1xx, 204 or 304, where Content-Length may describe a
// body that was never sent).
func hasContent(status int) bool { return status >= 200 && status != 204 && status != 304 }
