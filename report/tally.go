package report

import (
	"fmt"

	"github.com/robotstat/robotstat/schema"
)

// Tally aggregates robotstat's tables into the tables robotstat report
// prints. It does no I/O: the caller reads the Parquet files and feeds the
// rows in, crawl by crawl, captures first.
//
// # Sites
//
// The unit of every share is the site: one per crawl and host, the first
// capture of the host in the crawl whose URL path is /robots.txt
// (captures.robots_path), in the order the rows arrive. Common Crawl fetches
// a host's robots.txt again in each of a crawl's segments where the host
// has pages, and for http and https separately, so a large site can have
// dozens of captures in one crawl; counting captures would weigh sites by
// their size. Captures of another path (the target of a redirect that
// left /robots.txt) and repeated captures of a host are counted and shown,
// but are not sites. The target of a redirect from one host to another
// host's /robots.txt is a site of that other host.
//
// Which capture stands for a host is remembered in two Bloom filters
// (siteFilter), sized from the crawl's number of captures at about two bytes
// per capture each, so memory does not grow with the length of host names
// nor with the other tables' rows; a false positive (about 0.1% of sites
// for a 70-million-capture crawl, practically none below a few million)
// drops a site or counts a repeated capture's rows.
//
// # Denominators
//
// Status, outcome and adoption are shares of all sites. Contents, agents,
// directives, templates and bot verdicts are shares of parsed sites: sites
// whose robots.txt was fetched and parsed (outcome parsed: 2xx, or no
// status), the population the cited studies measure; a 4xx, 5xx or redirect
// decides every bot's verdict by itself (VERDICTS.md) and is counted in the
// adoption table instead. A bot's denominator is the parsed sites that have a
// bots row for it (all of them, unless runs with different catalogs were
// mixed).
//
// # Groups
//
// With By = ByCrawl the report has one column (group) per crawl; with
// ByRank one per stratum of captures.rank, cumulative (top 1k is inside top
// 10k), plus ranks beyond a million when there are any, unranked sites and
// all sites, pooled over every crawl given.
//
// # Feeding
//
// For each crawl: BeginCrawl, then every AddCaptures, then AddBots,
// AddAgents and AddDirectives in any order, then EndCrawl. Rows need only the
// columns TallyColumns names. Report may be called at any time after
// EndCrawl.
//
// A Tally is not safe for concurrent use.
type Tally struct {
	opts TallyOptions

	groups []*groupAcc
	crawls []string

	crawlOpen   bool
	othersBegun bool // a non-captures table has been fed for this crawl
	cur         int  // group of the current crawl (ByCrawl)

	hosts  siteFilter       // hosts counted in this crawl
	chosen siteFilter       // capture ids of this crawl's parsed sites
	ranks  map[uint64]int64 // ranked parsed sites of this crawl (ByRank)
	peak   int64            // largest filter memory used

	rankedSites int64

	botIndex map[string]int
	bots     []schema.BotIdent

	agents, directives *topCounter

	// The last capture id a bots, agents or directives row named, and its
	// groups (nil when it is not a parsed site): rows of a capture come
	// together, so most rows cost a string comparison.
	lastID     string
	lastSite   bool
	lastGroups []int
	scratch    []int
}

// Grouping of the report's columns (TallyOptions.By).
const (
	ByCrawl = "crawl"
	ByRank  = "rank"
)

// TallyOptions configure a Tally; the zero value means the defaults.
type TallyOptions struct {
	// By is ByCrawl (default) or ByRank.
	By string
	// TopAgents and TopDirectives are the rows of the top named agents and
	// non-standard directives tables; 0 means 25.
	TopAgents, TopDirectives int
	// MaxKeys bounds the distinct agent tokens and directive keys counted
	// at once (see topCounter); 0 means 1<<17.
	MaxKeys int
}

// Validate reports an unknown By or a negative size.
func (o TallyOptions) Validate() error {
	if o.By != "" && o.By != ByCrawl && o.By != ByRank {
		return fmt.Errorf("%w: by %q (want %s or %s)", ErrTallyOptions, o.By, ByCrawl, ByRank)
	}
	if o.TopAgents < 0 || o.TopDirectives < 0 || o.MaxKeys < 0 {
		return fmt.Errorf("%w: negative size", ErrTallyOptions)
	}
	return nil
}

func (o TallyOptions) withDefaults() TallyOptions {
	if o.By == "" {
		o.By = ByCrawl
	}
	if o.TopAgents == 0 {
		o.TopAgents = 25
	}
	if o.TopDirectives == 0 {
		o.TopDirectives = 25
	}
	if o.MaxKeys == 0 {
		o.MaxKeys = 1 << 17
	}
	return o
}

// TallyColumns returns the columns of table t that a Tally reads; the
// other fields of the rows may be left zero. It returns nil for tables the
// summary does not use.
func TallyColumns(t schema.TableName) []string {
	switch t {
	case schema.Captures:
		return []string{"capture_id", "host", "robots_path", "outcome", "status_class", "rank", "template",
			"groups", "looks_html", "looks_binary", "bom", "over_500kib", "sitemaps", "has_crawl_delay",
			"nonstandard_lines", "typo_lines", "missing_colon_lines", "rules_with_star", "rules_with_dollar",
			"star_disallows_root"}
	case schema.Bots:
		return []string{"capture_id", "bot", "operator", "category", "matched", "verdict", "somesite", "cic", "cc_class"}
	case schema.Agents:
		return []string{"capture_id", "token", "bot", "category"}
	case schema.Directives:
		return []string{"capture_id", "directive", "kind", "canonical"}
	}
	return nil
}

// The four definitions of the bots table, in the order the report puts them
// side by side.
const (
	DefVerdict  = iota // bots.verdict, robotstat's own
	DefSomesite        // bots.somesite, Liu et al.
	DefCIC             // bots.cic, Longpre et al.
	DefCCClass         // bots.cc_class, Common Crawl
	NumDefinitions
)

// DefinitionNames are the column names of the definitions, by Def*.
var DefinitionNames = [NumDefinitions]string{"verdict", "somesite", "cic", "cc_class"}

// The three classes every definition sorts a site into, by Class*: full is
// verdict/somesite full, cic all, cc_class disallow-all; partial is partial,
// some, allow-part; none is none, none, allow-all.
const (
	ClassFull = iota
	ClassPartial
	ClassNone
	NumClasses
)

// How a bot found its rules (bots.matched), by Matched*.
const (
	MatchedNamed   = iota // a group names the bot
	MatchedStar           // only the * group applies
	MatchedNoGroup        // no group applies
	NumMatched
)

// BotCounts are one bot's verdicts over one group's parsed sites.
type BotCounts struct {
	// Sites is the number of parsed sites with a bots row for the bot: the
	// denominator of its shares.
	Sites int64
	// Counts[matched][definition][class] counts sites.
	Counts [NumMatched][NumDefinitions][NumClasses]int64
}

// Class returns the sites whose class under definition def is class.
func (c *BotCounts) Class(def, class int) int64 {
	var n int64
	for m := range NumMatched {
		n += c.Counts[m][def][class]
	}
	return n
}

// groupAcc holds one group's counts.
type groupAcc struct {
	Group
	status    map[[2]string]int64 // by outcome, status class
	adoption  [len(adoptionRows)]int64
	content   [len(contentRows)]int64
	templates map[string]int64
	bots      []BotCounts // by bot index
}

// Group is one column of the report: a crawl, or a rank stratum.
type Group struct {
	Label string
	// Captures is every capture read; OtherPaths those whose URL path is
	// not /robots.txt or that have no host; Duplicates those of a host
	// already counted. Sites is the rest.
	Captures, OtherPaths, Duplicates, Sites int64
	// Sites by outcome: parsed, unavailable (4xx), unreachable (5xx),
	// redirect (3xx); Other holds outcomes this version does not know.
	Parsed, Unavailable, Unreachable, Redirect, Other int64
}

var rankStrata = [...]struct {
	label string
	max   int64
}{{"top 1k", 1_000}, {"top 10k", 10_000}, {"top 100k", 100_000}, {"top 1M", 1_000_000}}

// Group indexes of ByRank after the strata.
const (
	groupOver1M = len(rankStrata) + iota
	groupUnranked
	groupAll
	numRankGroups
)

// NewTally returns an empty Tally.
func NewTally(o TallyOptions) (*Tally, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	o = o.withDefaults()
	s := &Tally{
		opts:       o,
		botIndex:   map[string]int{},
		agents:     newTopCounter(o.MaxKeys),
		directives: newTopCounter(o.MaxKeys),
	}
	if o.By == ByRank {
		for i := range numRankGroups {
			label := ""
			switch {
			case i < len(rankStrata):
				label = rankStrata[i].label
			case i == groupOver1M:
				label = "rank > 1M"
			case i == groupUnranked:
				label = "unranked"
			default:
				label = "all"
			}
			s.groups = append(s.groups, newGroupAcc(label))
		}
	}
	return s, nil
}

func newGroupAcc(label string) *groupAcc {
	return &groupAcc{Group: Group{Label: label}, status: map[[2]string]int64{}, templates: map[string]int64{}}
}

// UnknownCrawlLabel is the column label of captures whose crawl is unknown.
const UnknownCrawlLabel = "(unknown crawl)"

// BeginCrawl starts the rows of one crawl ("" for unknown). captures is the
// number of rows of the crawl's captures files (the Parquet footers say),
// which sizes the site filters. Each crawl may be begun once.
func (s *Tally) BeginCrawl(crawl string, captures int64) {
	if s.crawlOpen {
		panic("stats: BeginCrawl before EndCrawl")
	}
	for _, c := range s.crawls {
		if c == crawl {
			panic(fmt.Sprintf("stats: crawl %q begun twice", crawl))
		}
	}
	s.crawls = append(s.crawls, crawl)
	if s.opts.By == ByCrawl {
		label := crawl
		if label == "" {
			label = UnknownCrawlLabel
		}
		s.groups = append(s.groups, newGroupAcc(label))
		s.cur = len(s.groups) - 1
	}
	s.hosts.reset(captures)
	s.chosen.reset(captures)
	s.peak = max(s.peak, s.hosts.bytes()+s.chosen.bytes())
	clear(s.ranks)
	s.crawlOpen, s.othersBegun, s.lastID, s.lastSite = true, false, "", false
}

// EndCrawl ends the current crawl's rows.
func (s *Tally) EndCrawl() {
	if !s.crawlOpen {
		panic("stats: EndCrawl without BeginCrawl")
	}
	s.crawlOpen = false
}

// groupsOf appends to dst the groups a capture of the given rank counts in.
func (s *Tally) groupsOf(rank int64, dst []int) []int {
	if s.opts.By == ByCrawl {
		return append(dst, s.cur)
	}
	for i, st := range rankStrata {
		if rank > 0 && rank <= st.max {
			dst = append(dst, i)
		}
	}
	switch {
	case rank > rankStrata[len(rankStrata)-1].max:
		dst = append(dst, groupOver1M)
	case rank <= 0:
		dst = append(dst, groupUnranked)
	}
	return append(dst, groupAll)
}

func (s *Tally) mustBeOpen(table string) {
	if !s.crawlOpen {
		panic("stats: " + table + " rows outside BeginCrawl/EndCrawl")
	}
}

// AddCaptures counts captures rows of the current crawl. All of a crawl's
// captures must come before its other tables' rows.
func (s *Tally) AddCaptures(rows []schema.CaptureRow) {
	s.mustBeOpen("captures")
	if s.othersBegun {
		panic("stats: captures rows after other tables' rows of the same crawl")
	}
	for i := range rows {
		c := &rows[i]
		gs := s.groupsOf(c.Rank, s.scratch[:0])
		s.scratch = gs
		site := 0 // 0 site, 1 other path, 2 duplicate
		switch {
		case !c.RobotsPath || c.Host == "":
			site = 1
		default:
			h1, h2 := hashString(c.Host)
			if !s.hosts.add(h1, h2) {
				site = 2
			}
		}
		parsed := site == 0 && c.Outcome == schema.OutcomeParsed
		if site == 0 && c.Rank > 0 {
			s.rankedSites++
		}
		for _, g := range gs {
			a := s.groups[g]
			a.Captures++
			switch site {
			case 1:
				a.OtherPaths++
				continue
			case 2:
				a.Duplicates++
				continue
			}
			a.Sites++
			switch c.Outcome {
			case schema.OutcomeParsed:
				a.Parsed++
			case schema.OutcomeUnavailable:
				a.Unavailable++
			case schema.OutcomeUnreachable:
				a.Unreachable++
			case schema.OutcomeRedirect:
				a.Redirect++
			default:
				a.Other++
			}
			a.status[[2]string{c.Outcome, c.StatusClass}]++
			for j, r := range adoptionRows {
				if r.test(c) {
					a.adoption[j]++
				}
			}
			if !parsed {
				continue
			}
			for j, r := range contentRows {
				if r.test(c) {
					a.content[j]++
				}
			}
			a.templates[c.Template]++
		}
		if parsed {
			h1, h2 := hashCaptureID(c.CaptureID)
			s.chosen.add(h1, h2)
			if s.opts.By == ByRank && c.Rank > 0 {
				if s.ranks == nil {
					s.ranks = map[uint64]int64{}
				}
				s.ranks[h1] = c.Rank
			}
		}
	}
}

// siteGroups returns the groups of the parsed site a bots, agents or
// directives row belongs to, or nil when its capture is not a parsed site.
// The slice is valid until the next call.
func (s *Tally) siteGroups(id string) []int {
	if id == s.lastID && s.othersBegun {
		if !s.lastSite {
			return nil
		}
		return s.lastGroups
	}
	s.othersBegun = true
	s.lastID = id
	h1, h2 := hashCaptureID(id)
	s.lastSite = s.chosen.has(h1, h2)
	if !s.lastSite {
		return nil
	}
	s.lastGroups = s.groupsOf(s.ranks[h1], s.lastGroups[:0])
	return s.lastGroups
}

// matchedIndex maps bots.matched to Matched*; a switch, not a map: it runs
// for every bots row, and comparing a few short strings costs less than
// hashing one.
func matchedIndex(v string) (int, bool) {
	switch v {
	case schema.MatchedNamed:
		return MatchedNamed, true
	case schema.MatchedStar:
		return MatchedStar, true
	case schema.MatchedNone:
		return MatchedNoGroup, true
	}
	return 0, false
}

// classIndex maps every definition's values to the three classes.
func classIndex(v string) (int, bool) {
	switch v {
	case schema.VerdictFull, schema.CICAll, schema.CCClassDisallowAll:
		return ClassFull, true
	case schema.VerdictPartial, schema.CICSome, schema.CCClassAllowPart:
		return ClassPartial, true
	case schema.VerdictNone, schema.CCClassAllowAll: // schema.CICNone is "none" too
		return ClassNone, true
	}
	return 0, false
}

// AddBots counts bots rows of the current crawl's parsed sites.
func (s *Tally) AddBots(rows []schema.BotRow) {
	s.mustBeOpen("bots")
	for i := range rows {
		r := &rows[i]
		gs := s.siteGroups(r.CaptureID)
		if len(gs) == 0 {
			continue
		}
		bi, ok := s.botIndex[r.Bot]
		if !ok {
			bi = len(s.bots)
			s.botIndex[r.Bot] = bi
			s.bots = append(s.bots, r.Ident())
		}
		m, mok := matchedIndex(r.Matched)
		var cls [NumDefinitions]int
		var known [NumDefinitions]bool
		for d, v := range [NumDefinitions]string{r.Verdict, r.Somesite, r.CIC, r.CCClass} {
			cls[d], known[d] = classIndex(v)
		}
		for _, g := range gs {
			a := s.groups[g]
			for len(a.bots) <= bi {
				a.bots = append(a.bots, BotCounts{})
			}
			bc := &a.bots[bi]
			bc.Sites++
			if !mok {
				continue
			}
			for d := range NumDefinitions {
				if known[d] {
					bc.Counts[m][d][cls[d]]++
				}
			}
		}
	}
}

// AddAgents counts agents rows (product tokens named) of the current
// crawl's parsed sites.
func (s *Tally) AddAgents(rows []schema.AgentRow) {
	s.mustBeOpen("agents")
	for i := range rows {
		r := &rows[i]
		for _, g := range s.siteGroups(r.CaptureID) {
			s.agents.add(r.Token, g, [2]string{r.Bot, r.Category})
		}
	}
}

// AddDirectives counts the non-standard keys of directives rows of the
// current crawl's parsed sites.
func (s *Tally) AddDirectives(rows []schema.DirectiveRow) {
	s.mustBeOpen("directives")
	for i := range rows {
		r := &rows[i]
		if r.Kind == schema.KindStandard {
			continue
		}
		for _, g := range s.siteGroups(r.CaptureID) {
			s.directives.add(r.Directive, g, [2]string{r.Kind, r.Canonical})
		}
	}
}

// FilterBytes returns the most memory the site filters held at once.
func (s *Tally) FilterBytes() int64 { return s.peak }

// adoptionRows split sites by what they answered; the rows add up to all
// sites.
var adoptionRows = [...]struct {
	label string
	test  func(*schema.CaptureRow) bool
}{
	{"robots.txt with at least one group", func(c *schema.CaptureRow) bool { return c.Outcome == schema.OutcomeParsed && c.Groups > 0 }},
	{"robots.txt without groups (empty, HTML, other)", func(c *schema.CaptureRow) bool { return c.Outcome == schema.OutcomeParsed && c.Groups == 0 }},
	{"no robots.txt: 4xx, everything allowed", func(c *schema.CaptureRow) bool { return c.Outcome == schema.OutcomeUnavailable }},
	{"unreachable: 5xx, everything disallowed", func(c *schema.CaptureRow) bool { return c.Outcome == schema.OutcomeUnreachable }},
	{"redirect: 3xx, the target is its own capture", func(c *schema.CaptureRow) bool { return c.Outcome == schema.OutcomeRedirect }},
	{"other outcome", func(c *schema.CaptureRow) bool {
		switch c.Outcome {
		case schema.OutcomeParsed, schema.OutcomeUnavailable, schema.OutcomeUnreachable, schema.OutcomeRedirect:
			return false
		}
		return true
	}},
}

// contentRows are facts about parsed robots.txt; a file may have several.
var contentRows = [...]struct {
	label string
	test  func(*schema.CaptureRow) bool
}{
	{"at least one group", func(c *schema.CaptureRow) bool { return c.Groups > 0 }},
	{"* disallows /", func(c *schema.CaptureRow) bool { return c.StarDisallowsRoot }},
	{"sitemap line", func(c *schema.CaptureRow) bool { return c.Sitemaps > 0 }},
	{"crawl-delay line", func(c *schema.CaptureRow) bool { return c.HasCrawlDelay }},
	{"rule with * wildcard", func(c *schema.CaptureRow) bool { return c.RulesWithStar > 0 }},
	{"rule with $ anchor", func(c *schema.CaptureRow) bool { return c.RulesWithDollar > 0 }},
	{"non-standard line (any key but user-agent, allow, disallow)", func(c *schema.CaptureRow) bool { return c.NonstandardLines > 0 }},
	{"misspelt key read as a standard one", func(c *schema.CaptureRow) bool { return c.TypoLines > 0 }},
	{"line without colon after the key", func(c *schema.CaptureRow) bool { return c.MissingColonLines > 0 }},
	{"UTF-8 byte order mark", func(c *schema.CaptureRow) bool { return c.BOM }},
	{"HTML page served as robots.txt", func(c *schema.CaptureRow) bool { return c.LooksHTML }},
	{"binary data", func(c *schema.CaptureRow) bool { return c.LooksBinary }},
	{"over 500 KiB (RFC 9309 parse minimum)", func(c *schema.CaptureRow) bool { return c.Over500KiB }},
}
