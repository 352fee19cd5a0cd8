package stats

import (
	"crypto/sha1"
	"encoding/base32"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/record"
	"github.com/robotstat/robotstat/schema"
)

// Rows holds the rows of any number of captures, one slice per table, ready
// to be handed to the schema package's writers.
//
// Rows is reusable: Reset empties it and keeps the memory. The slices inside
// rows (GroupRow.UserAgents, DirectiveRow.Signals, GroupRow.CrawlDelay, ...)
// share backing arrays owned by Rows and are valid until Reset; the strings
// are ordinary Go strings and may be kept. Not safe for concurrent use.
type Rows struct {
	Captures []schema.CaptureRow
	Groups   []schema.GroupRow
	Agents   []schema.AgentRow
	// Bots holds one block per capture: its rows in compact form (see
	// schema.BotsBlock; BotRows expands them), written by schema.WriteBots.
	Bots        []schema.BotsBlock
	Directives  []schema.DirectiveRow
	Rules       []schema.RuleRow
	Sitemaps    []schema.SitemapRow
	Diagnostics []schema.DiagnosticRow

	strs        []string
	signals     []schema.Signal
	floats      []float64
	botVerdicts []schema.BotVerdict // Bots[i].Verdicts
	botIndex    []int32             // Bots[i].Index
	botRows     int                 // rows in Bots
}

// Reset empties every table and keeps the memory for reuse.
func (r *Rows) Reset() {
	r.Captures = r.Captures[:0]
	r.Groups = r.Groups[:0]
	r.Agents = r.Agents[:0]
	r.Bots = r.Bots[:0]
	r.Directives = r.Directives[:0]
	r.Rules = r.Rules[:0]
	r.Sitemaps = r.Sitemaps[:0]
	r.Diagnostics = r.Diagnostics[:0]
	r.strs = r.strs[:0]
	r.signals = r.signals[:0]
	r.floats = r.floats[:0]
	r.botVerdicts = r.botVerdicts[:0]
	r.botIndex = r.botIndex[:0]
	r.botRows = 0
}

// BotRows returns the rows of the bots table, the blocks of Bots expanded.
func (r *Rows) BotRows() []schema.BotRow {
	out := make([]schema.BotRow, 0, r.botRows)
	for i := range r.Bots {
		out = r.Bots[i].AppendRows(out)
	}
	return out
}

// Len returns the number of rows over all tables.
func (r *Rows) Len() int {
	return len(r.Captures) + len(r.Groups) + len(r.Agents) + r.botRows + len(r.Directives) +
		len(r.Rules) + len(r.Sitemaps) + len(r.Diagnostics)
}

// Analyzer turns captures into rows: one parse pass per capture (the
// compiled parse.Robots and robotstat's own statistics handler share it
// through parse.Tee), then one row per capture, group, named agent, catalog
// bot and directive key, and optionally per rule, sitemap and diagnostic.
//
// Give each worker its own Analyzer: it is reusable for any number of
// captures (its scratch space is kept, so a warmed-up Analyzer allocates
// little more than the row strings) but not safe for concurrent use.
type Analyzer struct {
	opts       Options
	statusOpts parse.StatusOptions
	want       [8]bool // by tableIndex

	parser *parse.Parser
	robots parse.Robots
	col    collector
	tee    parse.Tee
	vd     Verdicter
	tm     templateMatcher
	in     interner

	idents []schema.BotIdent // the catalog, as every bots block lists it
	tuples []setMatch        // botRows: the verdict tuples of the capture's block

	seen       map[string]struct{}
	setStats   []agentSetStats
	noSetStats agentSetStats
	digestBuf  []byte
}

const (
	tCaptures = iota
	tGroups
	tAgents
	tBots
	tDirectives
	tRules
	tSitemaps
	tDiagnostics
)

var tableIndex = map[schema.TableName]int{
	schema.Captures: tCaptures, schema.Groups: tGroups, schema.Agents: tAgents, schema.Bots: tBots,
	schema.Directives: tDirectives, schema.Rules: tRules, schema.Sitemaps: tSitemaps, schema.Diagnostics: tDiagnostics,
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
		parser:     parse.NewParser(parse.Options{Limit: opts.ParseLimit}),
		seen:       make(map[string]struct{}, 64),
	}
	for _, t := range opts.Tables {
		a.want[tableIndex[t]] = true
	}
	for _, b := range opts.Catalog.Bots() {
		a.idents = append(a.idents, schema.BotIdent{Bot: b.Token, Operator: b.Operator, Category: b.Category})
	}
	a.col.a = a
	a.tee = parse.Tee{a.robots.Handler(), &a.col}
	return a, nil
}

// Analyze appends the rows of capture c to dst. It never fails: whatever the
// body holds is described (content never fails). c.Body is read only during
// the call.
func (a *Analyzer) Analyze(c *record.Capture, dst *Rows) {
	site := ParseSite(c.URL)
	key := schema.Key{
		CaptureID: schema.CaptureID(c.RecordID, c.Source, c.Offset),
		Crawl:     c.Crawl,
		URL:       c.URL,
		Host:      site.Host,
	}
	outcome := parse.StatusOutcome(c.Status, a.statusOpts)
	body := c.Body
	if outcome != parse.OutcomeParsed {
		// The body of a 3xx, 4xx or 5xx answer is not a robots.txt (RFC
		// 9309 §2.3.1): it is sniffed and digested but not parsed.
		body = nil
	}
	a.col.body = body
	a.parser.Parse(body, a.tee)
	a.col.body = nil
	a.robots.SetOutcome(outcome)
	r := &a.robots
	a.vd.Reset(r, a.col.ruleValues)
	var sn sniffed // the captures and diagnostics tables both report it
	if a.want[tCaptures] || a.want[tDiagnostics] {
		sn = sniffed{html: LooksHTML(c.Body), binary: LooksBinary(c.Body)}
	}

	if a.want[tCaptures] {
		a.captureRow(c, key, site, outcome, sn, dst)
	}
	if a.want[tGroups] {
		a.groupRows(key, dst)
	}
	if a.want[tAgents] {
		a.agentRows(key, dst)
	}
	if a.want[tBots] {
		a.botRows(key, dst)
	}
	if a.want[tDirectives] {
		a.directiveRows(key, dst)
	}
	if a.want[tRules] {
		for i := range r.Rules() {
			ru := &r.Rules()[i]
			dst.Rules = append(dst.Rules, schema.RuleRow{
				Key:               key,
				GroupIndex:        int32(ru.Group),
				Line:              int32(ru.Line),
				Directive:         ru.Directive.String(),
				Pattern:           a.in.str(ru.Raw),
				PatternNormalized: a.in.str(ru.Pattern),
			})
		}
	}
	if a.want[tSitemaps] {
		for _, s := range a.col.sitemaps {
			dst.Sitemaps = append(dst.Sitemaps, schema.SitemapRow{Key: key, Line: s.line, SitemapURL: s.url})
		}
	}
	if a.want[tDiagnostics] {
		a.diagnosticRows(key, outcome, sn, dst)
	}
}

// sniffed is what LooksHTML and LooksBinary say of a capture's body.
type sniffed struct{ html, binary bool }

func (a *Analyzer) captureRow(c *record.Capture, key schema.Key, site Site, outcome parse.Outcome, sn sniffed, dst *Rows) {
	r := &a.robots
	info, sum := r.Info()
	col := &a.col
	bodyLen := c.BodyLen
	if bodyLen < int64(len(c.Body)) {
		bodyLen = int64(len(c.Body))
	}
	row := schema.CaptureRow{
		Key:              key,
		Source:           baseName(c.Source),
		RecordOffset:     c.Offset,
		WARCRecordID:     trimRecordID(c.RecordID),
		Scheme:           site.Scheme,
		Port:             site.Port,
		RegisteredDomain: site.RegisteredDomain,
		RobotsPath:       c.RobotsPath,
		FetchTime:        c.FetchTime.UTC(),
		IP:               c.IP,
		HTTPStatus:       int32(c.Status),
		Outcome:          outcome.String(),
		StatusClass:      StatusClass(c.Status),
		ContentType:      c.ContentType,
		IdentifiedType:   c.IdentifiedType,
		WARCTruncated:    c.Truncated,
		BodyBytes:        bodyLen,
		ParsedBytes:      int64(info.Parsed),
		Over500KiB:       bodyLen > parse.DefaultLimit,
		BodyDigest:       a.digest(c),
		LooksHTML:        sn.html,
		LooksBinary:      sn.binary,
		BOM:              hasBOM(c.Body),
		LineEndings:      LineEndings(&sum),
		Lines:            int32(sum.Lines),
		BlankLines:       int32(sum.Blank),
		CommentLines:     col.commentOnly,
		DirectiveLines:   int32(sum.Directive),
		InvalidLines:     int32(sum.Invalid),
		Groups:           int32(len(r.Groups())),
		UserAgentLines:   int32(len(r.Agents())),
		Sitemaps:         int32(len(r.Sitemaps())),
		HasCrawlDelay:    col.crawlDelay,
		NonstandardLines: col.nonstandard,
		TypoLines:        int32(sum.Typo),
		// LineMissingColon is only kept on lines read as a directive.
		MissingColonLines: int32(sum.NoColon),
	}
	if c.FetchTime.IsZero() {
		row.FetchTime = c.FetchTime
	}
	if c.Truncated == "" && c.BodyTruncated {
		row.WARCTruncated = "unspecified"
	}
	if outcome == parse.OutcomeRedirect {
		row.RedirectTarget = ResolveLocation(c.URL, c.Location)
	}
	for i := range r.Rules() {
		ru := &r.Rules()[i]
		if ru.Directive == parse.Allow {
			row.AllowRules++
		} else {
			row.DisallowRules++
		}
		if ru.Wildcard() {
			row.RulesWithStar++
		}
		if ru.Anchored() {
			row.RulesWithDollar++
		}
	}
	if outcome == parse.OutcomeParsed {
		if star := r.StarSet(); star != parse.NoSet {
			row.StarDisallowsRoot = !a.vd.RootAllowed(star, parse.MatchStar)
		}
		row.Template = a.tm.match(a.opts.Templates, r, col.hasKey)
	}
	if n, ok := a.opts.Ranks.Rank(site.Host, site.RegisteredDomain); ok {
		row.Rank = n
	}
	dst.Captures = append(dst.Captures, row)
}

// digest is WARC-Payload-Digest when recorded, else the SHA-1 of the body
// as received, in the same "sha1:BASE32" form, so the two can be compared
// and deduplicated across crawls.
func (a *Analyzer) digest(c *record.Capture) string {
	if c.PayloadDigest != "" {
		return c.PayloadDigest
	}
	if len(c.Body) == 0 {
		return ""
	}
	sum := sha1.Sum(c.Body)
	a.digestBuf = base32.StdEncoding.AppendEncode(append(a.digestBuf[:0], "sha1:"...), sum[:])
	return string(a.digestBuf)
}

func hasBOM(b []byte) bool {
	return len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF
}

func baseName(source string) string {
	s := source
	if strings.Contains(s, "://") {
		if i := strings.IndexAny(s, "?#"); i >= 0 {
			s = s[:i]
		}
	}
	s = strings.TrimRight(s, "/\\")
	if i := strings.LastIndexAny(s, "/\\"); i >= 0 {
		s = s[i+1:]
	}
	return s
}

func trimRecordID(id string) string {
	id = strings.TrimSpace(id)
	id = strings.TrimPrefix(id, "<")
	return strings.TrimSuffix(id, ">")
}

func (a *Analyzer) groupRows(key schema.Key, dst *Rows) {
	r := &a.robots
	col := &a.col
	oi := 0
	for gi := range r.Groups() {
		g := &r.Groups()[gi]
		row := schema.GroupRow{Key: key, GroupIndex: int32(g.Index), FirstLine: int32(g.Line), IsStar: g.Star}
		start := len(dst.strs)
		for i := range g.Agents {
			dst.strs = append(dst.strs, a.in.str(g.Agents[i].Value))
		}
		row.UserAgents = dst.strs[start:len(dst.strs):len(dst.strs)]
		start = len(dst.strs)
		for i := range g.Agents {
			ag := &g.Agents[i]
			var tok string
			switch {
			case ag.Star:
				tok = "*"
			case len(ag.Token) > 0:
				tok = a.in.str(ag.Token)
			default:
				continue
			}
			dup := false
			for _, t := range dst.strs[start:] {
				if t == tok {
					dup = true
					break
				}
			}
			if !dup {
				dst.strs = append(dst.strs, tok)
			}
		}
		row.ProductTokens = dst.strs[start:len(dst.strs):len(dst.strs)]
		for i := range g.Rules {
			ru := &g.Rules[i]
			if ru.Directive == parse.Allow {
				row.AllowRules++
			} else {
				row.DisallowRules++
				if ru.Empty {
					row.EmptyDisallow = true
				}
			}
		}
		if gi < len(col.delays) && col.delays[gi].set {
			dst.floats = append(dst.floats, col.delays[gi].v)
			row.CrawlDelay = &dst.floats[len(dst.floats)-1]
		}
		start = len(dst.strs)
		for oi < len(col.others) && col.others[oi].group < int32(gi) {
			oi++
		}
		for oi < len(col.others) && col.others[oi].group == int32(gi) {
			dst.strs = append(dst.strs, col.others[oi].key)
			oi++
		}
		if len(dst.strs) > start {
			row.OtherDirectives = dst.strs[start:len(dst.strs):len(dst.strs)]
		}
		dst.Groups = append(dst.Groups, row)
	}
}

func (a *Analyzer) agentRows(key schema.Key, dst *Rows) {
	r := &a.robots
	clear(a.seen)
	groups := r.Groups()
	if n := r.NumSets(); cap(a.setStats) < n {
		a.setStats = make([]agentSetStats, n)
	} else {
		a.setStats = a.setStats[:n]
	}
	clear(a.setStats)
	a.noSetStats = agentSetStats{}
	for i := range r.Agents() {
		ag := &r.Agents()[i]
		var tok string
		var id parse.SetID
		var m parse.Match
		switch {
		case ag.Star:
			tok, id, m = "*", r.StarSet(), parse.MatchStar
		case len(ag.Token) > 0:
			tok = a.in.str(ag.Token)
			id, m = r.Lookup(tok)
		default:
			continue
		}
		if _, ok := a.seen[tok]; ok {
			continue
		}
		a.seen[tok] = struct{}{}
		row := schema.AgentRow{Key: key, Token: tok}
		// Tokens of one stacked group share a set: count its rules once.
		var st *agentSetStats
		if id != parse.NoSet {
			st = &a.setStats[id]
		} else {
			st = &a.noSetStats
		}
		if !st.done {
			*st = agentSetStats{done: true}
			sg := r.SetGroups(id)
			st.groups = int32(len(sg))
			for _, g := range sg {
				for j := range groups[g].Rules {
					ru := &groups[g].Rules[j]
					if ru.Directive == parse.Allow {
						st.allow++
					} else {
						st.disallow++
						if string(ru.Pattern) == "/" {
							st.disallowRoot = true
						}
					}
				}
			}
			st.rootAllowed = a.vd.RootAllowed(id, m)
		}
		row.Groups, row.AllowRules, row.DisallowRules = st.groups, st.allow, st.disallow
		row.DisallowRoot, row.RootAllowed = st.disallowRoot, st.rootAllowed
		if !ag.Star {
			if b, ok := a.opts.Catalog.Lookup(ag.Token); ok {
				row.Bot, row.Operator, row.Category = b.Token, b.Operator, b.Category
			}
		}
		dst.Agents = append(dst.Agents, row)
	}
}

// agentSetStats are the agents-table numbers of one group set.
type agentSetStats struct {
	done                      bool
	groups, allow, disallow   int32
	disallowRoot, rootAllowed bool
}

var boolValues = [2]bool{false, true}

// setMatch is what a bot's verdicts depend on within one capture: the
// group set that applies to it and how it was matched.
type setMatch struct {
	set parse.SetID
	m   parse.Match
}

// botRows appends the capture's bots rows as one block: the catalog, the
// distinct (group set, match) verdict tuples in the order the catalog
// reaches them, and each bot's tuple.
func (a *Analyzer) botRows(key schema.Key, dst *Rows) {
	r := &a.robots
	v0, i0 := len(dst.botVerdicts), len(dst.botIndex)
	a.tuples = a.tuples[:0]
	for _, b := range a.opts.Catalog.Bots() {
		id, m := r.Lookup(b.Token)
		k := slices.Index(a.tuples, setMatch{id, m})
		if k < 0 {
			k = len(a.tuples)
			a.tuples = append(a.tuples, setMatch{id, m})
			v := a.vd.For(id, m)
			bv := schema.BotVerdict{
				Matched: m.String(), Verdict: v.Verdict, Somesite: v.Somesite, CIC: v.CIC, CCClass: v.CCClass,
			}
			if v.Known {
				if v.RootAllowed {
					bv.RootAllowed = &boolValues[1]
				} else {
					bv.RootAllowed = &boolValues[0]
				}
			}
			dst.botVerdicts = append(dst.botVerdicts, bv)
		}
		dst.botIndex = append(dst.botIndex, int32(k))
	}
	v1, i1 := len(dst.botVerdicts), len(dst.botIndex)
	dst.Bots = append(dst.Bots, schema.BotsBlock{
		Key: key, Bots: a.idents,
		Verdicts: dst.botVerdicts[v0:v1:v1], Index: dst.botIndex[i0:i1:i1],
	})
	dst.botRows += len(a.idents)
}

func (a *Analyzer) directiveRows(key schema.Key, dst *Rows) {
	col := &a.col
	for di := range col.dirs {
		d := &col.dirs[di]
		row := schema.DirectiveRow{
			Key: key, Directive: d.key, Count: d.count, FirstLine: d.firstLine,
			FirstValue: d.firstValue, Kind: d.kind, Canonical: d.canonical,
		}
		if d.signal {
			start := len(dst.signals)
			for _, s := range col.signals {
				if s.dir == int32(di) {
					dst.signals = append(dst.signals, schema.Signal{Key: s.key, Value: s.value})
				}
			}
			row.Signals = dst.signals[start:len(dst.signals):len(dst.signals)]
			if len(row.Signals) == 0 {
				row.Signals = []schema.Signal{}
			}
		}
		dst.Directives = append(dst.Directives, row)
	}
}

// Diagnostic codes (the diagnostics table's code column).
const (
	DiagHTMLBody        = "html-body"
	DiagBinaryBody      = "binary-body"
	DiagBOM             = "bom"
	DiagOverLimit       = "over-parse-limit"
	DiagInvalidLine     = "invalid-line"
	DiagTypo            = "typo"
	DiagMissingColon    = "missing-colon"
	DiagLongLine        = "long-line"
	DiagInvalidUTF8     = "invalid-utf8"
	DiagControl         = "control-character"
	DiagTruncatedLine   = "truncated-line"
	DiagRuleOutside     = "rule-outside-group"
	DiagBadPattern      = "bad-pattern"
	DiagUnknownKey      = "unknown-directive"
	DiagAgentNotToken   = "user-agent-not-token"
	DiagAgentNamesNoone = "user-agent-names-no-token"
)

var diagMessages = map[string]string{
	DiagHTMLBody:        "the body looks like an HTML page, not a robots.txt",
	DiagBinaryBody:      "the body looks like binary data",
	DiagBOM:             "the body starts with a UTF-8 byte order mark (accepted, as Google does)",
	DiagOverLimit:       "the body is longer than the parse limit; the rest is ignored (RFC 9309 section 2.5)",
	DiagInvalidLine:     "line is neither blank, a comment nor a key: value record",
	DiagTypo:            "misspelt key accepted as the standard key (as Google does)",
	DiagMissingColon:    "key and value separated without a colon (accepted, as Google does)",
	DiagLongLine:        "line longer than Google's 16,664-byte limit (parsed whole)",
	DiagInvalidUTF8:     "line is not valid UTF-8 (RFC 9309 section 2.3)",
	DiagControl:         "line holds a control character",
	DiagTruncatedLine:   "line cut by the parse limit; not parsed",
	DiagRuleOutside:     "allow or disallow before the first user-agent line; ignored (RFC 9309 section 2.2.1)",
	DiagBadPattern:      "pattern does not start with / or *; it can never match",
	DiagUnknownKey:      "key robotstat does not know",
	DiagAgentNotToken:   "user-agent value is not a product token; its leading token is used (RFC 9309 section 2.2.1)",
	DiagAgentNamesNoone: "user-agent value names no product token; no crawler matches it",
}

func (a *Analyzer) diagnosticRows(key schema.Key, outcome parse.Outcome, sn sniffed, dst *Rows) {
	add := func(line int32, code string, value string) {
		dst.Diagnostics = append(dst.Diagnostics, schema.DiagnosticRow{Key: key, Line: line, Code: code, Message: diagMessages[code], Value: value})
	}
	if outcome != parse.OutcomeParsed {
		// The body of a 3xx/4xx/5xx is not read as a robots.txt: an HTML
		// error page there is no finding (captures.looks_html still says so).
		return
	}
	if sn.html {
		add(0, DiagHTMLBody, "")
	} else if sn.binary {
		add(0, DiagBinaryBody, "")
	}
	{
		info, _ := a.robots.Info()
		if info.BOM {
			add(0, DiagBOM, "")
		}
		if info.OverLimit {
			add(0, DiagOverLimit, "")
		}
	}
	for _, d := range a.col.diags {
		add(d.line, d.code, d.value)
	}
}

// collector is robotstat's own parse.Handler: everything the compiled
// parse.Robots does not keep (comment-only lines, keys per group, crawl
// delays, directive keys and values, signals, sitemap lines, line flags).
type collector struct {
	a *Analyzer

	group    int32 // current group, -1 before the first user-agent line
	inAgents bool

	commentOnly int32
	nonstandard int32
	crawlDelay  bool

	delays []struct {
		set bool
		v   float64
	}
	others []struct {
		group int32
		key   string
	}

	dirs     []dirAcc
	dirIndex map[string]int32
	keyBuf   []byte
	signals  []struct {
		dir        int32
		key, value string
	}

	sitemaps []struct {
		line int32
		url  string
	}

	// ruleValues hold every allow/disallow value (somesite's paths),
	// disallow values first (see Verdicter.Reset), as slices of valArena;
	// valAllow tells which span is an allow value.
	ruleValues [][]byte
	valArena   []byte
	valSpans   []int
	valAllow   []bool

	body  []byte
	diags []diag
}

type dirAcc struct {
	key, canonical, kind, firstValue string
	count, firstLine                 int32
	signal                           bool
}

type diag struct {
	line        int32
	code, value string
}

func (h *collector) Start(f *parse.FileInfo) {
	h.group, h.inAgents = -1, false
	h.commentOnly, h.nonstandard, h.crawlDelay = 0, 0, false
	h.delays = h.delays[:0]
	h.others = h.others[:0]
	h.dirs = h.dirs[:0]
	if h.dirIndex == nil {
		h.dirIndex = make(map[string]int32, 16)
	}
	clear(h.dirIndex)
	h.signals = h.signals[:0]
	h.sitemaps = h.sitemaps[:0]
	h.ruleValues = h.ruleValues[:0]
	h.valArena = h.valArena[:0]
	h.valSpans = h.valSpans[:0]
	h.valAllow = h.valAllow[:0]
	h.diags = h.diags[:0]
}

// record accounts one key/value record in the directives table.
func (h *collector) record(e *parse.Entry) {
	a := h.a
	kind := parse.ClassifyKey(e)
	if kind != parse.KindStandard {
		h.nonstandard++
	}
	h.keyBuf = appendDirectiveKey(h.keyBuf[:0], e.RawKey)
	i, ok := h.dirIndex[string(h.keyBuf)]
	if !ok {
		k := a.in.str(h.keyBuf)
		d := dirAcc{key: k, kind: kind.String(), firstLine: int32(e.Line), firstValue: a.in.capped(e.Value, schema.MaxValueBytes)}
		if kind != parse.KindUnknown {
			d.canonical = a.in.str(e.Name)
		}
		d.signal = isSignalKey(e.Name)
		i = int32(len(h.dirs))
		h.dirs = append(h.dirs, d)
		h.dirIndex[k] = i
	}
	d := &h.dirs[i]
	d.count++
	if d.signal && a.want[tDirectives] {
		ParseSignals(e.Value, func(k, v []byte) {
			h.keyBuf = appendDirectiveKey(h.keyBuf[:0], k)
			h.signals = append(h.signals, struct {
				dir        int32
				key, value string
			}{i, a.in.str(h.keyBuf), a.in.capped(v, schema.MaxValueBytes)})
		})
	}
	if kind == parse.KindUnknown && a.want[tDiagnostics] {
		h.diag(e.Line, DiagUnknownKey, e.RawKey)
	}
}

func (h *collector) diag(line int, code string, value []byte) {
	h.diags = append(h.diags, diag{int32(line), code, h.a.in.capped(value, schema.MaxValueBytes)})
}

func (h *collector) UserAgent(e *parse.Entry) {
	// Group tracking exactly as parse.Robots builds groups (RFC 9309
	// §2.2.1): a user-agent line after a rule starts a new group.
	if !h.inAgents {
		h.group++
		h.inAgents = true
		h.delays = append(h.delays, struct {
			set bool
			v   float64
		}{})
	}
	h.record(e)
	if h.a.want[tDiagnostics] && !parse.IsStar(e.Value) {
		switch {
		case len(parse.ProductToken(e.Value)) == 0:
			h.diag(e.Line, DiagAgentNamesNoone, e.Value)
		case !parse.ValidProductToken(e.Value):
			h.diag(e.Line, DiagAgentNotToken, e.Value)
		}
	}
}

func (h *collector) rule(e *parse.Entry) {
	if h.group >= 0 {
		h.inAgents = false
	}
	h.record(e)
	h.valArena = append(h.valArena, e.Value...)
	h.valSpans = append(h.valSpans, len(h.valArena))
	h.valAllow = append(h.valAllow, e.Key == parse.KeyAllow)
}

func (h *collector) Allow(e *parse.Entry)    { h.rule(e) }
func (h *collector) Disallow(e *parse.Entry) { h.rule(e) }

func (h *collector) Sitemap(e *parse.Entry) {
	h.record(e)
	if h.group >= 0 {
		h.other(e)
	}
	if h.a.want[tSitemaps] {
		h.sitemaps = append(h.sitemaps, struct {
			line int32
			url  string
		}{int32(e.Line), h.a.in.str(e.Value)})
	}
}

func (h *collector) Other(e *parse.Entry) {
	h.record(e)
	if string(e.Name) == "crawl-delay" {
		h.crawlDelay = true
		if h.group >= 0 {
			d := &h.delays[h.group]
			if !d.set {
				if v, ok := parseSeconds(e.Value); ok {
					d.set, d.v = true, v
				}
			}
		}
	}
	if h.group >= 0 {
		h.other(e)
	}
}

// other records a non-rule key inside the current group.
func (h *collector) other(e *parse.Entry) {
	if !h.a.want[tGroups] {
		return
	}
	h.keyBuf = appendDirectiveKey(h.keyBuf[:0], e.RawKey)
	h.others = append(h.others, struct {
		group int32
		key   string
	}{h.group, h.a.in.str(h.keyBuf)})
}

func (h *collector) Line(l *parse.LineInfo) {
	f := l.Flags
	if f&parse.LineComment != 0 && f&(parse.LineDirective|parse.LineInvalid) == 0 {
		h.commentOnly++
	}
	if !h.a.want[tDiagnostics] {
		return
	}
	bad := parse.LineInvalid | parse.LineTypo | parse.LineMissingColon | parse.LineTooLong | parse.LineInvalidUTF8 |
		parse.LineControl | parse.LineTruncated | parse.LineBeforeGroup | parse.LineBadPattern
	if f&bad == 0 {
		return
	}
	text := h.lineText(l)
	for _, fc := range lineDiags {
		if f&fc.flag != 0 {
			h.diag(l.Num, fc.code, text)
		}
	}
}

var lineDiags = [...]struct {
	flag parse.LineFlags
	code string
}{
	{parse.LineInvalid, DiagInvalidLine},
	{parse.LineTypo, DiagTypo},
	{parse.LineMissingColon, DiagMissingColon},
	{parse.LineTooLong, DiagLongLine},
	{parse.LineInvalidUTF8, DiagInvalidUTF8},
	{parse.LineControl, DiagControl},
	{parse.LineTruncated, DiagTruncatedLine},
	{parse.LineBeforeGroup, DiagRuleOutside},
	{parse.LineBadPattern, DiagBadPattern},
}

func (h *collector) lineText(l *parse.LineInfo) []byte {
	b := h.body
	if l.Offset < 0 || l.Offset > len(b) {
		return nil
	}
	end := l.Offset + l.Len
	if end > len(b) {
		end = len(b)
	}
	return b[l.Offset:end]
}

func (h *collector) End(*parse.Summary) {
	h.ruleValues = h.ruleValues[:0]
	for _, allow := range [...]bool{false, true} {
		start := 0
		for i, end := range h.valSpans {
			if h.valAllow[i] == allow {
				h.ruleValues = append(h.ruleValues, h.valArena[start:end:end])
			}
			start = end
		}
	}
}

// hasKey reports whether the file has a record whose canonical key is k.
func (h *collector) hasKey(k string) bool {
	for i := range h.dirs {
		if h.dirs[i].canonical == k {
			return true
		}
	}
	return false
}

// parseSeconds reads a Crawl-delay value: a non-negative decimal number of
// seconds ("10", "0.5"); anything else is not a delay.
func parseSeconds(v []byte) (float64, bool) {
	if len(v) == 0 || len(v) > 32 {
		return 0, false
	}
	for _, c := range v {
		if (c < '0' || c > '9') && c != '.' {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(unsafe.String(&v[0], len(v)), 64)
	if err != nil {
		return 0, false
	}
	return f, true
}
