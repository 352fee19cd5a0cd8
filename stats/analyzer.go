package stats

import (
	"github.com/robotstat/robotstat/lint"
	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/record"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/verdict"
)

// Analyzer turns captures into rows: one parse pass per capture (the
// compiled parse.Robots, robotstat's own statistics handler, collector, and
// for the diagnostics table lint.Linter share it through parse.Tee), then each enabled table's builder appends
// the capture's rows to a schema.Batch. The builders live in one file per
// table, named after schema's: captures.go, groups.go, agents.go, bots.go,
// directives.go, rules.go, sitemaps.go, diagnostics.go.
//
// Give each worker its own Analyzer: it is reusable for any number of
// captures (its scratch space is kept, so a warmed-up Analyzer allocates
// little more than the row strings) but not safe for concurrent use.
type Analyzer struct {
	opts       Options
	statusOpts parse.StatusOptions
	build      []builder // the enabled tables', in schema.AllTables order

	parser *parse.Parser
	robots parse.Robots
	col    collector
	lint   lint.Linter // in the tee only when lintOn: the diagnostics table is enabled
	lintOn bool
	tee    parse.Tee
	vd     verdict.Verdicter
	tm     templateMatcher
	in     interner

	bots *schema.BotList // the catalog, as every bots block lists it
	// botBlock's scratch: the capture's verdict tuples and its block
	tuples        []setMatch
	blockVerdicts []schema.BotVerdict
	blockIndex    []int32
	block         schema.BotsBlock
	verdictBuf    []byte

	seen       map[string]struct{}
	setStats   []agentSetStats
	noSetStats agentSetStats
	digestBuf  []byte
}

// builder appends one capture's rows of one table to dst.
type builder func(a *Analyzer, k *capture, dst *schema.Batch)

// builders are the tables' row builders. A table stats does not build rows
// for (one a later reduce step writes) has none.
var builders = map[schema.TableName]builder{
	schema.Captures:    (*Analyzer).captureRows,
	schema.Groups:      (*Analyzer).groupRows,
	schema.Agents:      (*Analyzer).agentRows,
	schema.Bots:        (*Analyzer).botRows,
	schema.Directives:  (*Analyzer).directiveRows,
	schema.Signals:     (*Analyzer).signalRows,
	schema.Verdicts:    (*Analyzer).verdictRows,
	schema.Rules:       (*Analyzer).ruleRows,
	schema.Sitemaps:    (*Analyzer).sitemapRows,
	schema.Diagnostics: (*Analyzer).diagnosticRows,
}

// capture is what every builder gets of the capture being analysed, worked
// out once.
type capture struct {
	c       *record.Capture
	path    string // c.Path, else the base name of c.Source
	key     schema.Key
	site    Site
	outcome parse.Outcome

	sniffDone    bool
	html, binary bool
	blockDone    bool // Analyzer.block holds this capture's bots block
}

// sniff returns what lint.LooksHTML and lint.LooksBinary say of the capture's body,
// computed on first use.
func (k *capture) sniff() (html, binary bool) {
	if !k.sniffDone {
		k.html, k.binary, k.sniffDone = lint.LooksHTML(k.c.Body), lint.LooksBinary(k.c.Body), true
	}
	return k.html, k.binary
}

// NewAnalyzer returns an Analyzer with the given options (see
// Options.Validate).
func NewAnalyzer(opts Options) (*Analyzer, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	opts = opts.withDefaults()
	a := &Analyzer{
		opts:       opts,
		statusOpts: parse.StatusOptions{TooManyRequestsUnreachable: opts.TooManyRequestsUnreachable},
		parser:     parse.NewParser(parse.Options{Limit: opts.ParseLimit, Grouping: opts.Grouping}),
		seen:       make(map[string]struct{}, 64),
	}
	want := func(t schema.TableName) bool {
		for _, u := range opts.Tables {
			if u == t {
				return true
			}
		}
		return false
	}
	for _, t := range schema.AnalyzeTables() {
		if b := builders[t]; b != nil && want(t) {
			a.build = append(a.build, b)
		}
	}
	a.bots = opts.Catalog.List()
	a.col = collector{
		in:          &a.in,
		signalPairs: want(schema.Directives) || want(schema.Signals),
		sitemapRows: want(schema.Sitemaps),
		groupKeys:   want(schema.Groups),
	}
	a.tee = parse.Tee{a.robots.Handler(), &a.col}
	if a.lintOn = want(schema.Diagnostics); a.lintOn {
		a.tee = append(a.tee, &a.lint)
	}
	return a, nil
}

// Analyze appends the rows of capture c to dst and returns the capture's
// RFC 9309 outcome (captures.outcome), whichever tables are enabled. It
// never fails: whatever the body holds is described (content never fails).
// c.Body is read only during the call.
func (a *Analyzer) Analyze(c *record.Capture, dst *schema.Batch) parse.Outcome {
	k := capture{c: c, site: ParseSite(c.URL), path: c.Path}
	if k.path == "" { // a capture not from package pipeline
		k.path = baseName(c.Source)
	}
	k.key = schema.Key{
		CaptureID: schema.CaptureID(c.RecordID, c.Crawl, k.path, c.Offset),
		Crawl:     c.Crawl,
		URL:       c.URL,
		Host:      k.site.Host,
	}
	k.outcome = parse.StatusOutcome(c.Status, a.statusOpts)
	body := c.Body
	if k.outcome != parse.OutcomeParsed {
		// The body of a 3xx, 4xx or 5xx answer is not a robots.txt (RFC
		// 9309 §2.3.1): it is sniffed and digested but not parsed.
		body = nil
	}
	if a.lintOn {
		a.lint.SetBody(body) // forgotten at the parse's end
	}
	a.parser.Parse(body, a.tee)
	a.robots.SetOutcome(k.outcome)
	a.vd.Reset(&a.robots, a.col.ruleValues)
	for _, b := range a.build {
		b(a, &k, dst)
	}
	return k.outcome
}
