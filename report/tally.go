package report

import (
	"fmt"

	"github.com/robotstat/robotstat/schema"
)

// Tally aggregates robotstat's tables into the tables robotstat report
// prints. It does no I/O: the caller reads the Parquet files and feeds the
// rows in, crawl by crawl, sites first.
//
// # Sites
//
// The unit of every share is the site: a row of the sites table (one per
// crawl and host, its robots.txt's answer resolved as robotstat sites
// resolves it: redirects followed through the crawl's captures, the best of
// repeated fetches). Common Crawl fetches a big site's robots.txt in many
// segments and for http and https separately, so counting captures would
// weigh sites by their size.
//
// A parsed site's file is the capture that answered it (sites.capture_id);
// its captures, agents and directives rows are the site's. Which captures
// and hosts are parsed sites is remembered in Bloom filters (siteFilter)
// sized from the crawl's number of sites at about two bytes per site each,
// so memory does not grow with the length of host names nor with the other
// tables' rows; a false positive (about 0.1% of sites for a 70-million-site
// crawl, practically none below a few million) counts a capture that
// answers no site. Only a redirect target can answer several sites (hosts
// that redirect to one file, or to another site's): the answers of sites
// reached through a redirect are kept exactly (shared), so such a file
// counts once per site it answers.
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
// For each crawl: BeginCrawl, then every AddSites, then AddCaptures,
// AddSiteBots, AddAgents and AddDirectives in any order, then EndCrawl. Rows need only the
// columns TallyColumns names. Report may be called at any time after
// EndCrawl.
//
// A Tally is not safe for concurrent use.
type Tally struct {
	opts TallyOptions

	groups []*groupAcc
	crawls []string

	crawlOpen   bool
	othersBegun bool // a table other than sites has been fed for this crawl
	cur         int  // group of the current crawl (ByCrawl)

	hosts     siteFilter         // hosts of this crawl's parsed sites
	chosen    siteFilter         // capture ids that answer them without a redirect
	shared    map[string][]int64 // capture ids that answer them through one: the ranks of those sites
	ranks     map[uint64]int64   // ranked parsed sites answered without a redirect (ByRank), by capture id hash
	hostRanks map[uint64]int64   // ranked parsed sites (ByRank), by host hash
	peak      int64              // largest filter memory used

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
	// the same for the host a site_bots row names
	lastHost       string
	lastHostSite   bool
	lastHostGroups []int
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
	case schema.Sites:
		return []string{"host", "capture_id", "url", "final_url", "outcome", "status_class", "reason", "candidates", "rank"}
	case schema.Captures:
		return []string{"capture_id", "template",
			"groups", "looks_html", "looks_binary", "bom", "over_500kib", "sitemaps", "has_crawl_delay",
			"nonstandard_lines", "typo_lines", "missing_colon_lines", "rules_with_star", "rules_with_dollar",
			"star_disallows_root"}
	case schema.SiteBots:
		return []string{"host", "bot", "operator", "category", "matched", "verdict", "somesite", "cic", "cc_class"}
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
	// Captures is every capture of the crawl (ByCrawl only); Candidates
	// the sites' captures of their /robots.txt (the rest are redirect
	// targets on other paths); Sites the sites; Redirected the sites whose
	// answer took a redirect.
	Captures, Candidates, Sites, Redirected int64
	// Sites by outcome: parsed, unavailable (4xx, or too many redirects),
	// unreachable (5xx), unresolved (a redirect to a URL the crawl never
	// captured); Other holds outcomes this version does not know.
	Parsed, Unavailable, Unreachable, Unresolved, Other int64
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

// BeginCrawl starts the rows of one crawl ("" for unknown). captures and
// sites are the numbers of rows of the crawl's captures and sites files
// (the completion records say); sites sizes the site filters. Each crawl
// may be begun once.
func (s *Tally) BeginCrawl(crawl string, captures, sites int64) {
	if s.crawlOpen {
		panic("report: BeginCrawl before EndCrawl")
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
		s.groups[s.cur].Captures = captures
	}
	s.hosts.reset(sites)
	s.chosen.reset(sites)
	s.peak = max(s.peak, s.hosts.bytes()+s.chosen.bytes())
	clear(s.ranks)
	clear(s.hostRanks)
	clear(s.shared)
	s.crawlOpen, s.othersBegun, s.lastID, s.lastSite = true, false, "", false
}

// EndCrawl ends the current crawl's rows.
func (s *Tally) EndCrawl() {
	if !s.crawlOpen {
		panic("report: EndCrawl without BeginCrawl")
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
		panic("report: " + table + " rows outside BeginCrawl/EndCrawl")
	}
}

// AddSites counts sites rows of the current crawl. All of a crawl's sites
// must come before its other tables' rows.
func (s *Tally) AddSites(rows []schema.SiteRow) {
	s.mustBeOpen("sites")
	if s.othersBegun {
		panic("report: sites rows after other tables' rows of the same crawl")
	}
	for i := range rows {
		r := &rows[i]
		gs := s.groupsOf(r.Rank, s.scratch[:0])
		s.scratch = gs
		parsed := r.Outcome == schema.OutcomeParsed
		if r.Rank > 0 {
			s.rankedSites++
		}
		for _, g := range gs {
			a := s.groups[g]
			a.Sites++
			a.Candidates += int64(r.Candidates)
			if r.FinalURL != "" && r.FinalURL != r.URL {
				a.Redirected++
			}
			switch r.Outcome {
			case schema.OutcomeParsed:
				a.Parsed++
			case schema.OutcomeUnavailable:
				a.Unavailable++
			case schema.OutcomeUnreachable:
				a.Unreachable++
			case schema.OutcomeUnresolved:
				a.Unresolved++
			default:
				a.Other++
			}
			a.status[[2]string{r.Outcome, r.StatusClass}]++
			for j, ar := range adoptionRows {
				if ar.site != nil && ar.site(r) {
					a.adoption[j]++
				}
			}
		}
		if parsed {
			k1, k2 := hashString(r.Host)
			s.hosts.add(k1, k2)
			if s.opts.By == ByRank && r.Rank > 0 {
				if s.ranks == nil {
					s.ranks, s.hostRanks = map[uint64]int64{}, map[uint64]int64{}
				}
				s.hostRanks[k1] = r.Rank
			}
			if r.FinalURL != r.URL {
				if s.shared == nil {
					s.shared = map[string][]int64{}
				}
				s.shared[r.CaptureID] = append(s.shared[r.CaptureID], r.Rank)
				continue
			}
			h1, h2 := hashCaptureID(r.CaptureID)
			s.chosen.add(h1, h2)
			if s.opts.By == ByRank && r.Rank > 0 {
				s.ranks[h1] = r.Rank
			}
		}
	}
}

// AddCaptures counts the captures rows of the current crawl that answer a
// parsed site: contents, templates and whether the file has a group.
func (s *Tally) AddCaptures(rows []schema.CaptureRow) {
	s.mustBeOpen("captures")
	for i := range rows {
		c := &rows[i]
		for _, g := range s.siteGroups(c.CaptureID) {
			a := s.groups[g]
			for j, ar := range adoptionRows {
				if ar.capture != nil && ar.capture(c) {
					a.adoption[j]++
				}
			}
			for j, r := range contentRows {
				if r.test(c) {
					a.content[j]++
				}
			}
			a.templates[c.Template]++
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
	s.lastGroups = s.lastGroups[:0]
	if s.chosen.has(h1, h2) {
		s.lastGroups = s.groupsOf(s.ranks[h1], s.lastGroups)
	}
	for _, rank := range s.shared[id] { // once for every site it answers
		s.lastGroups = s.groupsOf(rank, s.lastGroups)
	}
	s.lastSite = len(s.lastGroups) > 0
	if !s.lastSite {
		return nil
	}
	return s.lastGroups
}

// hostGroups returns the groups of the parsed site of host, or nil when the
// host is not a parsed site of the crawl. site_bots rows of a site come
// together, so most rows cost a string comparison. The slice is valid until
// the next call.
func (s *Tally) hostGroups(host string) []int {
	if host == s.lastHost {
		if !s.lastHostSite {
			return nil
		}
		return s.lastHostGroups
	}
	s.lastHost = host
	h1, h2 := hashString(host)
	s.lastHostSite = s.hosts.has(h1, h2)
	if !s.lastHostSite {
		return nil
	}
	s.lastHostGroups = s.groupsOf(s.hostRanks[h1], s.lastHostGroups[:0])
	return s.lastHostGroups
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

// AddSiteBots counts site_bots rows of the current crawl's parsed sites.
func (s *Tally) AddSiteBots(rows []schema.SiteBotRow) {
	s.mustBeOpen("site_bots")
	s.othersBegun = true
	for i := range rows {
		r := &rows[i]
		gs := s.hostGroups(r.Host)
		if len(gs) == 0 {
			continue
		}
		bi, ok := s.botIndex[r.Bot]
		if !ok {
			bi = len(s.bots)
			s.botIndex[r.Bot] = bi
			s.bots = append(s.bots, schema.BotIdent{Bot: r.Bot, Operator: r.Operator, Category: r.Category})
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
// sites. A row is decided by the site (site) or, for parsed sites, by the
// file that answered (capture).
var adoptionRows = [...]struct {
	label   string
	site    func(*schema.SiteRow) bool
	capture func(*schema.CaptureRow) bool
	rare    bool // left out of the table when no site has it
}{
	{label: "robots.txt with at least one group", capture: func(c *schema.CaptureRow) bool { return c.Groups > 0 }},
	{label: "robots.txt without groups (empty, HTML, other)", capture: func(c *schema.CaptureRow) bool { return c.Groups == 0 }},
	{label: "no robots.txt: 4xx, everything allowed", site: func(r *schema.SiteRow) bool {
		return r.Outcome == schema.OutcomeUnavailable && r.Reason == ""
	}},
	{label: "more than five redirects or a loop: everything allowed", rare: true, site: func(r *schema.SiteRow) bool {
		return r.Outcome == schema.OutcomeUnavailable && r.Reason != ""
	}},
	{label: "unreachable: 5xx, everything disallowed", site: func(r *schema.SiteRow) bool { return r.Outcome == schema.OutcomeUnreachable }},
	{label: "unresolved: a redirect to a URL the crawl has no capture of", rare: true, site: func(r *schema.SiteRow) bool { return r.Outcome == schema.OutcomeUnresolved }},
	{label: "other outcome", rare: true, site: func(r *schema.SiteRow) bool {
		switch r.Outcome {
		case schema.OutcomeParsed, schema.OutcomeUnavailable, schema.OutcomeUnreachable, schema.OutcomeUnresolved:
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
