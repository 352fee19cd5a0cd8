package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"runtime"
	"strings"
	"time"

	"github.com/robotstat/robotstat/parse"
)

// Responses says which WARC response and resource records become captures.
type Responses uint8

const (
	// ResponsesAuto counts every response inside a Common Crawl robotstxt
	// WARC (its source name has a "robotstxt" path element or file-name
	// part, as in crawl-data/CC-MAIN-2024-22/segments/.../robotstxt/...),
	// where redirect targets live too, and only /robots.txt responses
	// elsewhere. It is the zero value.
	ResponsesAuto Responses = iota
	// ResponsesRobots counts responses whose target path is /robots.txt.
	ResponsesRobots
	// ResponsesAll counts every response and resource record.
	ResponsesAll
)

// ParseResponses maps the flag values "auto", "robots" and "all".
func ParseResponses(s string) (Responses, error) {
	switch s {
	case "", "auto":
		return ResponsesAuto, nil
	case "robots", "robots-path":
		return ResponsesRobots, nil
	case "all":
		return ResponsesAll, nil
	}
	return 0, fmt.Errorf("%w: responses %q: want auto, robots or all", ErrConfig, s)
}

func (r Responses) String() string {
	switch r {
	case ResponsesRobots:
		return "robots"
	case ResponsesAll:
		return "all"
	}
	return "auto"
}

// Fields names the columns of JSON Lines and CSV dumps.
type Fields struct {
	URL    string // default "url"
	Status string // default "status"; optional in the data
	Body   string // default "body"
	Time   string // default "time"; optional; RFC 3339, 14-digit WARC date, a date, or Unix seconds
	// Host, default "host", stands in for a missing or empty url: a row
	// with host example.com is https://example.com/robots.txt.
	Host string
}

// ParseFields reads the fields of a dump as robotstat's --fields gives
// them: name=column pairs separated by commas, names url, host, status,
// body and time; a name not given keeps its default.
func ParseFields(s string) (Fields, error) {
	var f Fields
	if s == "" {
		return f, nil
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || v == "" {
			return f, fmt.Errorf("%q is not name=column", kv)
		}
		switch k {
		case "url":
			f.URL = v
		case "status":
			f.Status = v
		case "body":
			f.Body = v
		case "time":
			f.Time = v
		case "host":
			f.Host = v
		default:
			return f, fmt.Errorf("unknown field %q (want url, host, status, body or time)", k)
		}
	}
	return f, nil
}

// String is f as ParseFields reads it, the fields set in the order url,
// host, status, body, time; "" when none is set.
func (f Fields) String() string {
	var parts []string
	for _, p := range [...]struct{ name, col string }{{"url", f.URL}, {"host", f.Host}, {"status", f.Status}, {"body", f.Body}, {"time", f.Time}} {
		if p.col != "" {
			parts = append(parts, p.name+"="+p.col)
		}
	}
	return strings.Join(parts, ",")
}

// RetryPolicy bounds how an HTTP(S) input is retried: MaxTries attempts in
// all (the first included) with exponential backoff from BaseDelay, doubled
// each time, capped at MaxDelay. A server's Retry-After is honoured, capped
// at MaxDelay too, so that one bad header cannot stall a run for hours.
type RetryPolicy struct {
	MaxTries  int
	BaseDelay time.Duration
	MaxDelay  time.Duration
}

// RetryEvent is one retry of an http(s) input (Config.OnRetry): Try of
// MaxTries comes after Wait, because of Err (the last try's failure);
// Status is that try's HTTP status (403, 429, 5xx), 0 when it got no
// response (a network failure, a timeout). Resumed says Try asks for the
// body from byte Got on (Range); after a connection that broke once the
// body had made progress, Try is 1 of a fresh budget. A plain value.
type RetryEvent struct {
	URL           string
	Try, MaxTries int
	Wait          time.Duration
	Err           error
	Status        int
	Resumed       bool
	Got           int64
}

// String says the event in one line: which URL is retried, how long the
// wait is, which try of how many comes next, and what the last try
// answered (its status, S3's code and message; "failed" without an
// error), e.g. "retrying https://x/a in 2s (try 2 of 5): 503 Service
// Unavailable".
func (e RetryEvent) String() string {
	why := "failed"
	if e.Err != nil {
		why = strings.TrimPrefix(e.Err.Error(), ErrSlowDown.Error()+": ")
	}
	resume := ""
	if e.Resumed {
		resume = fmt.Sprintf(", resuming at byte %d", e.Got)
	}
	return fmt.Sprintf("retrying %s in %s (try %d of %d%s): %s", e.URL, e.Wait.Round(time.Millisecond), e.Try, e.MaxTries, resume, why)
}

// Config configures Run. The zero value is usable: every zero field takes
// the default documented beside it (DefaultConfig returns them filled in).
// A Config is read, never written, by Run and may be shared.
type Config struct {
	// Workers is the number of goroutines that decode payloads and call the
	// consumer, and the number of inputs decoded at once. Default
	// runtime.GOMAXPROCS(0).
	Workers int

	// BodyLimit caps Capture.Body. Default 512000 bytes (500 KiB), the
	// minimum a parser must read per RFC 9309 section 2.5.
	BodyLimit int

	// RecordLimit caps how much of one WARC record block (HTTP header plus
	// payload as stored) is held in memory; the rest is read and discarded.
	// Identity payloads still report their true BodyLen; an encoded payload
	// cut here decodes as far as it goes. Default 2 MiB; at least
	// BodyLimit+64 KiB.
	RecordLimit int

	// Shard selects a deterministic part of the expanded inputs.
	Shard Shard

	// Crawl names the crawl of every capture of an input that is not a
	// crawl name (a crawl name input's captures are of that crawl). When
	// empty, an input's captures are of the crawl its path or URL names
	// (CrawlOfPath: crawl-data/CC-MAIN-YYYY-WW/), else of its warcinfo's
	// isPartOf. The path wins over the header because it is what the user
	// asked for (a mirror's folder of a crawl); a warcinfo isPartOf that
	// names another crawl is counted and located as a ClassCrawl error
	// (ErrCrawlMismatch). A crawl named (Crawl, or a crawl name input) is
	// the user's word: the header is not read for it.
	Crawl string

	// Responses says which WARC responses count. Default ResponsesAuto.
	Responses Responses

	// Strict makes the first data error end the run (Run returns it).
	Strict bool

	// Progress receives a progress bar when non-nil. The bar redraws a
	// line, which only a terminal shows well, so the caller passes stderr
	// only when it is a terminal and --quiet is off, and nil otherwise.
	Progress io.Writer

	// Fields names the columns of JSON Lines and CSV dumps.
	Fields Fields

	// ZstdWindow is the largest zstd window (RFC 8878 section 3.1.1.1.2)
	// a decoder accepts. A frame's window is the history its decoder
	// holds: each input being read holds up to one, so Workers ×
	// ZstdWindow bounds it at worst. Default DefaultZstdWindow (2 GiB,
	// what zstd --long=31 writes, the largest zstd's own tool writes). A
	// frame over it is a broken frame whose message names its window and
	// this limit.
	ZstdWindow int64

	// ManifestBase prefixes relative lines of a manifest, e.g.
	// "https://data.commoncrawl.org/" for Common Crawl's robotstxt.paths.gz.
	// Without it relative lines resolve against the manifest's own folder
	// (a file) or its origin, scheme://host/ (a URL).
	ManifestBase string

	// CCBase is where an input named like a Common Crawl crawl,
	// CC-MAIN-YYYY-WW (when no file of that name exists), is read from:
	// its list crawl-data/CC-MAIN-YYYY-WW/robotstxt.paths.gz and every WARC
	// the list names, relative to the same base. A URL (a mirror) or a
	// folder laid out the same way. Default DefaultCCBase.
	CCBase string

	// Panel, when set, reads every crawl input (CC-MAIN-YYYY-WW, which all
	// inputs must then be) as a panel of these hosts through the crawl's
	// URL index under CCBase, one unit per crawl (see Panel), instead of
	// the crawl's whole robotstxt subset. Sample and Segments do not apply.
	Panel *Panel

	// Sample, when positive, reads only that many files of each crawl and
	// manifest, chosen deterministically and spread over the segments (see
	// selectListed for how). Other inputs are read whole.
	Sample int

	// Segments, when set, reads only the files of crawls and manifests
	// whose path names one of these segment ids
	// (crawl-data/CC-MAIN-2024-33/segments/1722640353668.0/...), before
	// Sample. An id that no crawl or manifest of the run lists is an error.
	Segments []string

	// Downloads bounds the http(s) inputs downloaded at once, whatever
	// Workers is: Common Crawl asks for few parallel requests. Default 4.
	Downloads int

	// Rate is the request budget of all http(s) downloads together, in
	// requests per second (first tries, retries and Range resumes alike):
	// requests are spaced at least 1/Rate apart. Default DefaultRate;
	// negative for no limit.
	Rate float64

	// StopAfterRefused ends the run (ErrStopped) once that many downloads
	// in a row, across all of them, gave up with every try refused (403,
	// 429, 5xx; ErrRefused): an endpoint that refuses everything is not
	// helped by the thousands of downloads left, each spending its retries,
	// and under KeepGoing each would be recorded as failed. Default 8;
	// negative never stops.
	StopAfterRefused int

	// HTTPClient fetches http(s) inputs. Default a client without an
	// overall timeout (inputs are large) and http.DefaultTransport. Run
	// uses a copy whose CheckRedirect (calling this one's) stops a redirect
	// loop at once.
	HTTPClient *http.Client

	// S3 reads s3://bucket/key inputs (and a CCBase of s3://commoncrawl/),
	// with the same retries, pacing, Range resumes and timeouts as http(s)
	// ones (see S3Getter). Nil makes an s3:// input an error (ErrNoS3).
	S3 S3Getter

	// Retry bounds retries of http(s) inputs. Default 6 tries, 1 s base,
	// 60 s max. No try follows a failed one sooner than BaseDelay, not
	// even when Retry-After says less.
	Retry RetryPolicy

	// OnRetry, when set, is told of every retry of an http(s) input before
	// its wait begins, so that a run that waits says what it waits for
	// (the defaults wait 31 s in all before they give up on a refused
	// connection). It is called from the goroutines reading inputs,
	// concurrently for different inputs, and must return quickly.
	OnRetry func(RetryEvent)

	// Timeouts of each request of an http(s) input, whatever HTTPClient
	// is: ConnectTimeout to get a connection (DNS, TCP, TLS; default
	// 30 s), HeaderTimeout from then to the response header (default
	// 60 s), IdleTimeout for the next bytes of the body (default 60 s).
	// Each is a failed try, retried within Retry (a body is resumed with
	// a Range request).
	ConnectTimeout time.Duration
	HeaderTimeout  time.Duration
	IdleTimeout    time.Duration

	// MinRate, in bytes per second, is the least a body must average
	// over every IdleTimeout-long stretch: a server that trickles (a byte
	// every 10 s never trips IdleTimeout) fails the try as a stalled one
	// does, and the body is resumed. curl's --speed-limit and
	// --speed-time, with IdleTimeout as the time. Default DefaultMinRate
	// (1 KiB/s, 60 KiB a minute); negative for none.
	MinRate float64

	// Stdin is read for the input "-" (a WARC, compressed or not). Nil
	// makes "-" an error.
	Stdin io.Reader

	// MaxDiagnostics caps Summary.Diagnostics (counts are never capped).
	// Default 100; negative keeps none.
	MaxDiagnostics int

	// KeepGoing makes an input that cannot be read (a file that cannot be
	// opened, a download that fails after its retries, a read error) fail
	// its unit rather than the run: UnitDone reports it with the error,
	// Summary.FailedUnits counts it, and the other inputs are read. A
	// cancelled context still ends the run.
	KeepGoing bool

	// Skip, when set, is asked once per unit of the shard before anything
	// is read; the inputs of a unit it returns true for are not read (a
	// resumed run skips the units it has already committed). Summary.Skipped
	// counts them.
	Skip func(Unit) bool

	// Start, when set, is called once with the units the run is about to
	// read (after sharding and Skip), in order, before any is read; an
	// error ends the run before it reads anything.
	Start func([]Unit) error

	// BatchDone, when set, is called by worker worker after it has
	// consumed a batch of captures, all of unit u, before the batch counts
	// as done: a consumer that buffers rows per worker hands the unit's
	// rows on here, so that they are all handed on before UnitDone.
	BatchDone func(worker int, u Unit) error

	// UnitDone, when set, is called once per unit read, after every
	// capture of it has been consumed and every BatchDone of it has
	// returned, from whichever goroutine finished it last (calls for
	// different units may run concurrently). A unit is reported also when
	// it failed under KeepGoing; not when the run ended before it was
	// done. Errors of BatchDone and UnitDone end the run, as the
	// consumer's do.
	UnitDone func(UnitResult) error

	testSleep func(context.Context, time.Duration) error // tests observe retry delays
}

// Defaults.
const (
	DefaultBodyLimit      = parse.DefaultLimit // bodies are kept up to what is parsed
	DefaultRecordLimit    = 2 << 20
	DefaultMaxDiagnostics = 100
	DefaultConnectTimeout = 30 * time.Second
	DefaultHeaderTimeout  = time.Minute
	DefaultIdleTimeout    = time.Minute
	DefaultDownloads      = 4
	DefaultRetries        = 6 // Retry.MaxTries: tries in all, 1 s apart and doubling
	// DefaultStopAfterRefused: two rounds of the default downloads.
	DefaultStopAfterRefused = 8
	// DefaultRate, in requests per second over all downloads: one a
	// second per default download, so that a burst of refusals (every try
	// a quick 403 or 503) cannot turn into a flood (Common Crawl's status
	// page asks for retries no more often than once a second). It also
	// caps a run at 4 files a second, ~10 MB/s of Common Crawl's few-MB
	// robotstxt WARCs: a fast link raises Rate with Downloads.
	DefaultRate    = 4.0
	DefaultMinRate = 1024
	// minRate is the least Rate (requests per second) taken: one a day.
	// Below it 1/Rate does not fit a time.Duration (1e-300 overflowed
	// into no limit at all).
	minRate = 1.0 / 86400
	// DefaultZstdWindow: 2 GiB, zstd --long=31's window (ZSTD_WINDOWLOG
	// _MAX_64). zstd's own decoder stops at 128 MiB unless told
	// --long=31 or --memory; robotstat reads what --long writes.
	DefaultZstdWindow = 1 << 31
	minZstdWindow     = 1 << 10 // the format's smallest window
	recordLimitSlack  = 64 << 10
)

// DefaultConfig returns the configuration Run uses for zero fields.
func DefaultConfig() Config {
	var c Config
	c.fill()
	return c
}

// fill replaces zero fields with their defaults; the one place defaults live.
func (c *Config) fill() {
	if c.Workers == 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if c.BodyLimit == 0 {
		c.BodyLimit = DefaultBodyLimit
	}
	if c.RecordLimit == 0 {
		c.RecordLimit = DefaultRecordLimit
		if c.RecordLimit < c.BodyLimit+recordLimitSlack {
			c.RecordLimit = c.BodyLimit + recordLimitSlack
		}
	}
	if c.Fields.URL == "" {
		c.Fields.URL = "url"
	}
	if c.Fields.Status == "" {
		c.Fields.Status = "status"
	}
	if c.Fields.Body == "" {
		c.Fields.Body = "body"
	}
	if c.Fields.Time == "" {
		c.Fields.Time = "time"
	}
	if c.Fields.Host == "" {
		c.Fields.Host = "host"
	}
	if c.HTTPClient == nil {
		c.HTTPClient = &http.Client{}
	}
	if c.Retry.MaxTries == 0 {
		c.Retry.MaxTries = DefaultRetries
	}
	if c.Retry.BaseDelay == 0 {
		c.Retry.BaseDelay = time.Second
	}
	if c.Retry.MaxDelay == 0 {
		c.Retry.MaxDelay = time.Minute
	}
	if c.ConnectTimeout == 0 {
		c.ConnectTimeout = DefaultConnectTimeout
	}
	if c.HeaderTimeout == 0 {
		c.HeaderTimeout = DefaultHeaderTimeout
	}
	if c.IdleTimeout == 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	if c.Downloads == 0 {
		c.Downloads = DefaultDownloads
	}
	if c.Rate == 0 {
		c.Rate = DefaultRate
	}
	if c.StopAfterRefused == 0 {
		c.StopAfterRefused = DefaultStopAfterRefused
	}
	if c.MaxDiagnostics == 0 {
		c.MaxDiagnostics = DefaultMaxDiagnostics
	}
	if c.ZstdWindow == 0 {
		c.ZstdWindow = DefaultZstdWindow
	}
	if c.MinRate == 0 {
		c.MinRate = DefaultMinRate
	}
}

// Validate reports every invalid field (after defaults are applied), joined.
func (c Config) Validate() error {
	c.fill()
	var errs []error
	bad := func(format string, a ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrConfig}, a...)...))
	}
	if c.Workers < 1 || c.Workers > 4096 {
		bad("workers %d: want 1..4096", c.Workers)
	}
	if c.BodyLimit < 1 {
		bad("body limit %d: want > 0", c.BodyLimit)
	}
	if c.RecordLimit < c.BodyLimit+recordLimitSlack {
		bad("record limit %d: want at least body limit + %d", c.RecordLimit, recordLimitSlack)
	}
	if err := c.Shard.validate(); err != nil {
		errs = append(errs, err)
	}
	if c.Responses > ResponsesAll {
		bad("responses %d", c.Responses)
	}
	if c.Retry.MaxTries < 1 || c.Retry.BaseDelay < 0 || c.Retry.MaxDelay < c.Retry.BaseDelay {
		bad("retry policy %+v: want MaxTries >= 1 and 0 <= BaseDelay <= MaxDelay", c.Retry)
	}
	if c.Rate != c.Rate || math.IsInf(c.Rate, 0) || (c.Rate > 0 && c.Rate < minRate) {
		bad("rate %v: want at least %.6f requests a second (one a day), or negative for no limit", c.Rate, minRate)
	}
	if c.MinRate != c.MinRate || math.IsInf(c.MinRate, 0) {
		bad("min rate %v: want bytes a second, or negative for none", c.MinRate)
	}
	if why := crawlNameProblem(c.Crawl); why != "" {
		bad("crawl %q %s", c.Crawl, why)
	}
	if c.ZstdWindow < minZstdWindow {
		bad("zstd window %d: want at least %d (1 KiB)", c.ZstdWindow, minZstdWindow)
	}
	if c.Downloads < 1 || c.Downloads > 1024 {
		bad("downloads %d: want 1..1024", c.Downloads)
	}
	if c.Sample < 0 {
		bad("sample %d: want 0 (everything) or more", c.Sample)
	}
	if c.Panel != nil {
		if err := c.Panel.validate(); err != nil {
			errs = append(errs, err)
		}
		if c.Sample > 0 || len(c.Segments) > 0 {
			bad("panel: sample and segments do not apply")
		}
	}
	for _, s := range c.Segments {
		if s == "" || strings.ContainsAny(s, "/\\") {
			bad("segment %q: want a segment id such as 1722640353668.0", s)
		}
	}
	for _, t := range []struct {
		name string
		d    time.Duration
	}{{"connect", c.ConnectTimeout}, {"header", c.HeaderTimeout}, {"idle", c.IdleTimeout}} {
		if t.d < 0 {
			bad("%s timeout %v: want a positive duration (0 for the default)", t.name, t.d)
		}
	}
	return errors.Join(errs...)
}
