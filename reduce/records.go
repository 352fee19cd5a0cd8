package reduce

import (
	"encoding/binary"
	"errors"

	"github.com/robotstat/robotstat/schema"
)

// The spill records: one type per kind of record a spill holds, each with
// the one encoder (appendTo) and decoder (decode) of its bytes. The records
// live only in the spill folder of one build, so the format needs no
// version; it is a flat list of fields, written by enc and read by dec in
// the same order.
//
//	kind          spill (stage)                    partitioned by
//	captureRec    captures (A -> B)                the URL's authority
//	targetRec     targets (A -> B)                 the target's authority
//	candidateRec  candidates (A -> C)              the host
//	nodeRec       nodes (B)                        the URL's authority
//	urlResult     res-a, res-b, answers (B -> C)   the URL's authority / the asking partition
//	hopRequest    requests (B)                     the target's authority
//	candRequest   candidate-requests (A -> C)      the target's authority
//	candAnswer    candidate-answers (C)            the asking partition
//	siteRequest   sites (C -> D)                   the answer's capture id, else the host
//	verdictRec    verdicts (D)                     the capture id
//	historyRec    history (D -> site_history)      the host, across crawls
//	domainRec     domains (C -> domains)           the registered domain

// A spillRecord is one kind of spill record. appendTo appends its encoding
// to b. decode reads a record appendTo wrote back into the receiver,
// overwriting every field; it fails with errShort on a record cut short and
// errBadRecord on one with bytes left over or a value out of range (a
// class, reason, hop count or verdict code no table has), so that a spill
// file cut short or written by other code is an error, not a panic later.
// (A record is not checksummed: a byte changed inside a URL still decodes;
// the files live for one build, beside the dataset.) Fields of type []byte
// alias the decoded bytes and are valid until the next record is read;
// strings are copies, or the schema's shared constants.
type spillRecord interface {
	appendTo(b []byte) []byte
	decode(b []byte) error
}

// Errors of a spill record that cannot be decoded.
var (
	errShort     = errors.New("reduce: spill record cut short")
	errBadRecord = errors.New("reduce: spill record malformed")
)

// captureRec is one capture of the crawl: what following a URL needs of
// it.
type captureRec struct {
	id          [16]byte
	url         string
	class       uint8 // classParsed ... classRedirect
	status      int32
	statusClass string
	fetch       int64  // Unix ms; noTime when unknown
	target      string // redirect_target of a 3xx; "" when none
}

func (r *captureRec) appendTo(b []byte) []byte {
	return enc(b).id(r.id).str(r.url).byte(r.class).int(int64(r.status)).str(r.statusClass).int(r.fetch).str(r.target)
}

func (r *captureRec) decode(b []byte) error {
	d := dec{b: b}
	r.decodeFrom(&d)
	return d.done()
}

func (r *captureRec) decodeFrom(d *dec) {
	*r = captureRec{id: d.id(), url: d.str(), class: d.class(classRedirect), status: d.int32(), statusClass: d.statusClass(),
		fetch: d.int(), target: d.str()}
}

// answer is the result of a capture that answers itself (not a 3xx).
func (r *captureRec) answer() result {
	return result{class: r.class, ans: &capture{id: r.id, url: r.url, status: r.status, statusClass: r.statusClass, fetch: r.fetch}}
}

// targetRec is a URL some redirect of the crawl leads to.
type targetRec struct{ url string }

func (r *targetRec) appendTo(b []byte) []byte { return enc(b).str(r.url) }

func (r *targetRec) decode(b []byte) error {
	d := dec{b: b}
	r.url = d.str()
	return d.done()
}

// candidateRec is one capture of a host's /robots.txt: a candidate answer
// of the host's site.
type candidateRec struct {
	captureRec
	host, regdom string
	https        bool
	rank         int64
}

func (r *candidateRec) appendTo(b []byte) []byte {
	return enc(r.captureRec.appendTo(b)).str(r.host).str(r.regdom).bool(r.https).int(r.rank)
}

func (r *candidateRec) decode(b []byte) error {
	d := dec{b: b}
	r.captureRec.decodeFrom(&d)
	r.host, r.regdom, r.https, r.rank = d.str(), d.str(), d.bool(), d.int()
	return d.done()
}

// nodeRec is a redirect target the crawl captured: the best of its
// captures that answer (own, without a capture when it has none) and
// whether one of its captures is a 3xx without a Location. Its other
// redirects travel as hopRequests.
type nodeRec struct {
	url        string
	own        result
	noLocation bool
}

func (r *nodeRec) appendTo(b []byte) []byte {
	return enc(b).str(r.url).result(r.own).bool(r.noLocation)
}

func (r *nodeRec) decode(b []byte) error {
	d := dec{b: b}
	r.url, r.own, r.noLocation = d.str(), d.result(), d.bool()
	return d.done()
}

// urlResult is where following url leads: a node's result in a layer of
// resolveTargets, or the answer to a node's hopRequest.
type urlResult struct {
	url string
	res result
}

func (r *urlResult) appendTo(b []byte) []byte { return enc(b).str(r.url).result(r.res) }

func (r *urlResult) decode(b []byte) error {
	d := dec{b: b}
	r.url, r.res = d.str(), d.result()
	return d.done()
}

// hopRequest asks what a redirect from url, a node of partition from,
// to target leads to.
type hopRequest struct {
	target string
	from   int
	url    string
}

func (r *hopRequest) appendTo(b []byte) []byte {
	return enc(b).str(r.target).uint(uint64(r.from)).str(r.url)
}

func (r *hopRequest) decode(b []byte) error {
	d := dec{b: b}
	r.target, r.from, r.url = d.str(), d.index(), d.str()
	return d.done()
}

// candRequest asks what the redirect of candidate index of partition from
// to target leads to.
type candRequest struct {
	target string
	from   int
	index  int // of the candidate among its partition's, in spill order
}

func (r *candRequest) appendTo(b []byte) []byte {
	return enc(b).str(r.target).uint(uint64(r.from)).uint(uint64(r.index))
}

func (r *candRequest) decode(b []byte) error {
	d := dec{b: b}
	r.target, r.from, r.index = d.str(), d.index(), d.index()
	return d.done()
}

// candAnswer is the answer to a candRequest: where candidate index's
// redirect leads.
type candAnswer struct {
	index int
	res   result
}

func (r *candAnswer) appendTo(b []byte) []byte { return enc(b).uint(uint64(r.index)).result(r.res) }

func (r *candAnswer) decode(b []byte) error {
	d := dec{b: b}
	r.index, r.res = d.index(), d.result()
	return d.done()
}

// siteRequest is a site waiting for its answer's verdicts: the site's
// host, its class, and the answering capture when it has one.
type siteRequest struct {
	host   string
	regdom string
	class  uint8 // classParsed ... classUnresolved
	rank   int64
	hasAns bool
	id     [16]byte // when hasAns
}

func (r *siteRequest) appendTo(b []byte) []byte {
	e := enc(b).str(r.host).str(r.regdom).byte(r.class).int(r.rank).bool(r.hasAns)
	if r.hasAns {
		e = e.id(r.id)
	}
	return e
}

func (r *siteRequest) decode(b []byte) error {
	d := dec{b: b}
	*r = siteRequest{host: d.str(), regdom: d.str(), class: d.class(classUnresolved), rank: d.int(), hasAns: d.bool()}
	if r.hasAns {
		r.id = d.id()
	}
	return d.done()
}

// verdictRec is one verdicts row: the capture's id, the index of its
// file's bot catalog among the crawl's, and its tuples and bot_tuple as
// schema.ParseVerdicts reads them. tuples and botTuple alias the record.
type verdictRec struct {
	id       [16]byte
	cat      int
	tuples   []byte
	botTuple []byte
}

func (r *verdictRec) appendTo(b []byte) []byte {
	return enc(b).id(r.id).uint(uint64(r.cat)).raw(r.tuples).raw(r.botTuple)
}

func (r *verdictRec) decode(b []byte) error {
	d := dec{b: b}
	r.id, r.cat, r.tuples, r.botTuple = d.id(), d.index(), d.raw(), d.raw()
	return d.done()
}

// historyRec is one site of one crawl as site_history needs it: host,
// crawl (its index among the dataset's), outcome class, rank, the bot
// catalog (its id in the history) and each of the catalog's bots' verdict
// code (matched in the high nibble, verdict in the low one), run-length
// coded as appendRuns writes them: most bots of a site take the * group's
// verdict. runs aliases the record.
type historyRec struct {
	host   string
	regdom string
	crawl  int
	class  uint8 // classParsed ... classUnresolved
	rank   int64
	cat    int
	runs   []byte
}

func (r *historyRec) appendTo(b []byte) []byte {
	return enc(b).str(r.host).str(r.regdom).uint(uint64(r.crawl)).byte(r.class).int(r.rank).uint(uint64(r.cat)).raw(r.runs)
}

func (r *historyRec) decode(b []byte) error {
	d := dec{b: b}
	*r = historyRec{host: d.str(), regdom: d.str(), crawl: d.index(), class: d.class(classUnresolved), rank: d.int(),
		cat: d.index(), runs: d.raw()}
	if d.err == nil && !validRuns(r.runs) {
		d.err = errBadRecord
	}
	return d.done()
}

// appendRuns appends codes (one verdict code a bot) run-length coded:
// pairs of a code and the length of its run.
func appendRuns(b []byte, codes []byte) []byte {
	for i := 0; i < len(codes); {
		j := i + 1
		for j < len(codes) && codes[j] == codes[i] {
			j++
		}
		b = enc(b).byte(codes[i]).uint(uint64(j - i))
		i = j
	}
	return b
}

// eachRun calls fn with every run of runs (appendRuns' coding) that
// falls in the first n codes, in order: the code and the positions
// [from, to) it covers. A record of more codes than n (its catalog's
// bots) is cut there. runs must be valid (validRuns).
func eachRun(runs []byte, n int, fn func(code byte, from, to int)) {
	d := dec{b: runs}
	for at := 0; at < n && len(d.b) > 0 && d.err == nil; {
		c, run := d.byte(), d.index()
		to := n
		if run < n-at {
			to = at + run
		}
		fn(c, at, to)
		at = to
	}
}

// validRuns reports whether runs is pairs of a verdict code (codeMatched
// and codeVerdict name both of its nibbles) and a run length of at least
// one.
func validRuns(runs []byte) bool {
	d := dec{b: runs}
	for len(d.b) > 0 {
		c, n := d.byte(), d.index()
		if d.err != nil || c>>4 >= byte(len(codeMatched)) || c&0x0f >= byte(len(codeVerdict)) || n == 0 {
			return false
		}
	}
	return true
}

// encResult appends r: its class, hops and reason, and its answering
// capture when it has one.
func (e enc) result(r result) enc {
	e = e.byte(r.class).byte(r.hops).byte(r.reason).bool(r.ans != nil)
	if r.ans != nil {
		e = e.id(r.ans.id).str(r.ans.url).int(int64(r.ans.status)).str(r.ans.statusClass).int(r.ans.fetch)
	}
	return e
}

func (d *dec) result() result {
	r := result{class: d.class(classUnresolved), hops: d.byte(), reason: d.byte()}
	if r.reason >= uint8(len(reasonNames)) || r.hops > maxHops {
		d.fail(errBadRecord)
	}
	if d.bool() {
		r.ans = &capture{id: d.id(), url: d.str(), status: d.int32(), statusClass: d.statusClass(), fetch: d.int()}
	}
	return r
}

// enc appends the fields of a record; dec reads them back in the same
// order.
type enc []byte

func (e enc) str(s string) enc  { return append(binary.AppendUvarint(e, uint64(len(s))), s...) }
func (e enc) raw(b []byte) enc  { return append(binary.AppendUvarint(e, uint64(len(b))), b...) }
func (e enc) uint(v uint64) enc { return binary.AppendUvarint(e, v) }
func (e enc) int(v int64) enc   { return binary.AppendVarint(e, v) }
func (e enc) id(v [16]byte) enc { return append(e, v[:]...) }
func (e enc) byte(v uint8) enc  { return append(e, v) }
func (e enc) bool(v bool) enc   { return e.byte(b2u(v)) }

func b2u(v bool) uint8 {
	if v {
		return 1
	}
	return 0
}

// dec reads a record enc wrote. The first read past the end, or of a
// value out of range, sets err; every later read returns a zero value.
type dec struct {
	b   []byte
	err error
}

func (d *dec) fail(err error) {
	if d.err == nil {
		d.err = err
	}
	d.b = nil
}

// done returns the error of the reads, and errBadRecord when bytes are
// left over.
func (d *dec) done() error {
	if d.err == nil && len(d.b) > 0 {
		d.err = errBadRecord
	}
	return d.err
}

func (d *dec) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail(errShort)
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) int() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail(errShort)
		return 0
	}
	d.b = d.b[n:]
	return v
}

// int32 reads an int written from an int32.
func (d *dec) int32() int32 {
	v := d.int()
	if int64(int32(v)) != v {
		d.fail(errBadRecord)
		return 0
	}
	return int32(v)
}

// index reads a partition, a position or a count: a uint that fits an
// int.
func (d *dec) index() int {
	v := d.uint()
	if v > uint64(maxInt) {
		d.fail(errBadRecord)
		return 0
	}
	return int(v)
}

const maxInt = int(^uint(0) >> 1)

func (d *dec) raw() []byte {
	n := d.uint()
	if uint64(len(d.b)) < n {
		d.fail(errShort)
		return nil
	}
	if n == 0 {
		return nil
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}

func (d *dec) str() string { return string(d.raw()) }

// statusClasses are the values of captures.status_class, so that decoding
// one (in every capture and answer) allocates nothing.
var statusClasses = [...]string{schema.StatusClassSuccess, schema.StatusClassRedirect, schema.StatusClassNotFound,
	schema.StatusClassUnauthorized, schema.StatusClassForbidden, schema.StatusClassDeferVisits, schema.StatusClassOther}

// statusClass reads a status_class: one of statusClasses shared, any
// other value copied.
func (d *dec) statusClass() string {
	b := d.raw()
	for _, c := range statusClasses {
		if string(b) == c {
			return c
		}
	}
	return string(b)
}

func (d *dec) byte() uint8 {
	if len(d.b) == 0 {
		d.fail(errShort)
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

// class reads a result class no greater than last.
func (d *dec) class(last uint8) uint8 {
	v := d.byte()
	if v > last {
		d.fail(errBadRecord)
		return 0
	}
	return v
}

func (d *dec) bool() bool {
	switch d.byte() {
	case 0:
		return false
	case 1:
		return true
	}
	d.fail(errBadRecord)
	return false
}

func (d *dec) id() (v [16]byte) {
	if len(d.b) < 16 {
		d.fail(errShort)
		return v
	}
	copy(v[:], d.b)
	d.b = d.b[16:]
	return v
}
