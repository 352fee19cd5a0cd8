// Package schematest builds deterministic robotstat datasets for tests: the
// schema package's own, the independent readers' in scripts/verify, and any
// package that wants real Parquet output without running the pipeline.
//
// The rows are synthetic but exercise every column: three crawls (one of
// them unknown), every outcome, NULLs in every nullable column, lists of
// zero, one and several elements, and every table.
package schematest

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/robotstat/robotstat/schema"
)

// Crawls are the crawls fixture captures are spread over, in turn; the last
// is unknown.
var Crawls = [...]string{"CC-MAIN-2024-33", "CC-MAIN-2024-38", ""}

// Base is the fetch time of capture 0; capture i was fetched i minutes
// later.
var Base = time.Date(2024, 8, 3, 12, 0, 0, 0, time.UTC)

// Rows holds the rows of every table: a Batch (the tables of captures'
// rows) and the tables no Batch carries, which production code writes
// through schema.WriterOf (analyze an input's errors, robotstat sites the
// tables it builds).
type Rows struct {
	schema.Batch
	Errors      []schema.ErrorRow
	Sites       []schema.SiteRow
	SiteBots    []schema.SiteBotRow
	SiteHistory []schema.SiteHistoryRow
	Domains     []schema.DomainRow
}

// Generate returns the rows of n captures: Range(0, n).
func Generate(n int) *Rows { return Range(0, n) }

// Range returns the rows of captures from to to-1: Capture(i) and the rows
// of the other tables that describe it, the bots rows as one block per
// capture over the Catalog. Ranges that do not overlap hold different
// captures, so concurrent writers can each take one. The batch's slices
// are its own (none is cut from its arenas): it may be read concurrently.
func Range(from, to int) *Rows {
	r := &Rows{}
	for i := from; i < to; i++ {
		c := Capture(i)
		r.Captures = append(r.Captures, c)
		add(r, i, c)
	}
	return r
}

// Count returns how many rows of table t the batch holds.
func Count(r *Rows, t schema.TableName) int {
	n := 0
	ForEachKey(r, t, func(schema.Key) { n++ })
	return n
}

// Write writes every table's rows to ds through each table's shared
// TableWriter (the bots blocks as rows, through parquet-go's writer) in
// batches of batch rows (all of them at once when batch <= 0). It does not
// commit and leaves r as it is.
func Write(ds *schema.Dataset, r *Rows, batch int) error {
	return cmp.Or(
		WriteBatches(schema.WriterOf[schema.CaptureRow](ds), r.Captures, batch),
		WriteBatches(schema.WriterOf[schema.GroupRow](ds), r.Groups, batch),
		WriteBatches(schema.WriterOf[schema.AgentRow](ds), r.Agents, batch),
		WriteBatches(schema.WriterOf[schema.BotRow](ds), r.BotRows(), batch),
		WriteBatches(schema.WriterOf[schema.DirectiveRow](ds), r.Directives, batch),
		WriteBatches(schema.WriterOf[schema.SignalRow](ds), r.SignalRows, batch),
		WriteBatches(schema.WriterOf[schema.VerdictsRow](ds), r.Verdicts, batch),
		WriteBatches(schema.WriterOf[schema.RuleRow](ds), r.Rules, batch),
		WriteBatches(schema.WriterOf[schema.SitemapRow](ds), r.Sitemaps, batch),
		WriteBatches(schema.WriterOf[schema.DiagnosticRow](ds), r.Diagnostics, batch),
		writeDirect(ds, r, batch),
	)
}

// WriteSink writes r as production code does: its Batch through a new Sink
// of ds (as analyze's workers write captures' rows; the Batch is reset),
// the errors, sites, site_bots and site_history rows through their
// TableWriters (as analyze's input commits and robotstat sites write
// them). It does not commit.
func WriteSink(ds *schema.Dataset, r *Rows) error {
	if err := ds.Sink().Write(&r.Batch); err != nil {
		return err
	}
	return writeDirect(ds, r, 0)
}

// writeDirect writes the rows of the tables no Batch carries.
func writeDirect(ds *schema.Dataset, r *Rows, batch int) error {
	return cmp.Or(
		WriteBatches(schema.WriterOf[schema.SiteRow](ds), r.Sites, batch),
		WriteBatches(schema.WriterOf[schema.SiteBotRow](ds), r.SiteBots, batch),
		WriteBatches(schema.WriterOf[schema.SiteHistoryRow](ds), r.SiteHistory, batch),
		WriteBatches(schema.WriterOf[schema.DomainRow](ds), r.Domains, batch),
		WriteBatches(schema.WriterOf[schema.ErrorRow](ds), r.Errors, batch),
	)
}

// WriteBatches writes rows to w, a *schema.TableWriter or a
// *schema.LocalWriter, in batches of batch rows (all of them at once when
// batch <= 0), and returns the first error.
func WriteBatches[T schema.Row](w interface{ Write([]T) error }, rows []T, batch int) error {
	if batch <= 0 {
		batch = max(len(rows), 1)
	}
	for len(rows) > 0 {
		n := min(batch, len(rows))
		if err := w.Write(rows[:n]); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return nil
}

// Status returns the HTTP status of capture i: 200 for i%10 in 0..5, none
// (0) for 6, 404 for 7, 503 for 8 and 301 for 9.
func Status(i int) int32 {
	return [...]int32{200, 200, 200, 200, 200, 200, 0, 404, 503, 301}[i%10]
}

// Key returns the Key of capture i.
func Key(i int) schema.Key {
	host := fmt.Sprintf("site%d.example", i)
	return schema.Key{
		CaptureID: schema.CaptureID(fmt.Sprintf("<urn:uuid:00000000-0000-0000-0000-%012d>", i), "", "", 0),
		Crawl:     Crawls[i%len(Crawls)],
		URL:       "https://" + host + "/robots.txt",
		Host:      host,
	}
}

// Capture returns the captures row of capture i. It allocates only the
// row's strings, so it can generate millions of rows in a loop.
func Capture(i int) schema.CaptureRow {
	k := Key(i)
	status := Status(i)
	c := schema.CaptureRow{
		Key:          k,
		Source:       fmt.Sprintf("CC-MAIN-%05d.warc.gz", i/1000),
		RecordOffset: int64(i%1000) * 4096,
		WARCRecordID: strings.Trim(fmt.Sprintf("<urn:uuid:00000000-0000-0000-0000-%012d>", i), "<>"),
		Scheme:       "https",
		Port:         443,
		RobotsPath:   true,
		IP:           fmt.Sprintf("192.0.2.%d", i%250+1),
		HTTPStatus:   status,
		ContentType:  "text/plain",
		LineEndings:  schema.LineEndingsLF,
	}
	if i%4 != 3 {
		c.RegisteredDomain = k.Host
	}
	if i%11 != 10 {
		c.FetchTime = Base.Add(time.Duration(i) * time.Minute)
	}
	switch {
	case status == 200 || status == 0:
		c.Outcome = schema.OutcomeParsed
		c.StatusClass = schema.StatusClassSuccess
		groups := int32(i%3 + 1)
		c.BodyBytes = int64(40 + 30*groups)
		c.ParsedBytes = c.BodyBytes
		c.Groups = groups
		c.UserAgentLines = groups
		c.DisallowRules = groups
		c.AllowRules = 1
		c.Lines = 2*groups + 3
		c.DirectiveLines = 2*groups + 2
		c.BlankLines = 1
		c.Sitemaps = 1
		c.NonstandardLines = 1
		c.RulesWithStar = int32(i % 2)
		c.StarDisallowsRoot = i%6 == 0
		c.BodyDigest = fmt.Sprintf("sha1:%032X", i)
		if i%4 == 0 {
			c.Template = "wordpress"
		}
		if i%20 == 0 {
			c.TypoLines, c.MissingColonLines, c.InvalidLines, c.Lines = 1, 1, 1, c.Lines+1
			c.LineEndings, c.BOM = schema.LineEndingsCRLF, true
		}
	case status == 404:
		c.Outcome = schema.OutcomeUnavailable
		c.StatusClass = schema.StatusClassNotFound
		c.ContentType = "text/html"
		c.BodyBytes, c.ParsedBytes = 1200, 1200
		c.LooksHTML = true
	case status == 503:
		c.Outcome = schema.OutcomeUnreachable
		c.StatusClass = schema.StatusClassDeferVisits
		c.ContentType = ""
		c.LineEndings = schema.LineEndingsNone
	case status == 301:
		c.Outcome = schema.OutcomeRedirect
		c.StatusClass = schema.StatusClassRedirect
		c.RedirectTarget = "https://www." + k.Host + "/robots.txt"
		c.ContentType = ""
		c.LineEndings = schema.LineEndingsNone
	}
	if i%5 != 0 {
		c.Rank = int64(i + 1)
	}
	return c
}

// ForEachKey calls f with the Key of every row of table t of r, in order.
func ForEachKey(r *Rows, t schema.TableName, f func(schema.Key)) {
	switch t {
	case schema.Captures:
		for _, x := range r.Captures {
			f(x.Key)
		}
	case schema.Groups:
		for _, x := range r.Groups {
			f(x.Key)
		}
	case schema.Agents:
		for _, x := range r.Agents {
			f(x.Key)
		}
	case schema.Bots:
		for _, x := range r.Bots {
			for range x.Rows() {
				f(x.Key)
			}
		}
	case schema.Directives:
		for _, x := range r.Directives {
			f(x.Key)
		}
	case schema.Signals:
		for _, x := range r.SignalRows {
			f(x.Key)
		}
	case schema.Rules:
		for _, x := range r.Rules {
			f(x.Key)
		}
	case schema.Sitemaps:
		for _, x := range r.Sitemaps {
			f(x.Key)
		}
	case schema.Diagnostics:
		for _, x := range r.Diagnostics {
			f(x.Key)
		}
	case schema.Errors: // no capture: an error is located in its input
		for _, x := range r.Errors {
			f(schema.Key{Crawl: x.Crawl})
		}
	case schema.Verdicts:
		for _, x := range r.Verdicts {
			f(x.Key)
		}
	case schema.Sites: // no capture: the Key carries the crawl and host
		for _, x := range r.Sites {
			f(schema.Key{CaptureID: x.CaptureID, Crawl: x.Crawl, URL: x.URL, Host: x.Host})
		}
	case schema.SiteBots:
		for _, x := range r.SiteBots {
			f(schema.Key{Crawl: x.Crawl, Host: x.Host})
		}
	case schema.SiteHistory: // spans crawls: its rows have none
		for _, x := range r.SiteHistory {
			f(schema.Key{Host: x.Host})
		}
	case schema.Domains:
		for _, x := range r.Domains {
			f(schema.Key{Crawl: x.Crawl, Host: x.Host})
		}
	}
}
