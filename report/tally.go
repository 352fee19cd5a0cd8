package report

import (
	"fmt"
	"slices"

	"github.com/robotstat/robotstat/schema"
)

// Tally aggregates robotstat's tables into the tables and trends robotstat
// report prints. It does no I/O: the caller reads the Parquet files and
// feeds the rows in, site_history first, then crawl by crawl, sites before
// the other tables of the crawl.
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
// its captures, agents, directives and signals rows are the site's. Which
// captures and hosts are parsed sites is remembered in Bloom filters
// (siteFilter) sized from the crawl's number of sites at about two bytes
// per site each, so memory does not grow with the length of host names nor
// with the other tables' rows; a false positive (about 0.1% of sites for a
// 70-million-site crawl, practically none below a few million) counts a
// capture that answers no site. Only a redirect target can answer several
// sites (hosts that redirect to one file, or to another site's): the
// answers of sites reached through a redirect are kept exactly (shared), so
// such a file counts once per site it answers.
//
// # Denominators
//
// Status, outcome and adoption are shares of all sites. Contents, agents,
// directives, templates, signals and bot verdicts are shares of parsed
// sites: sites whose robots.txt was fetched and parsed (outcome parsed:
// 2xx, or no status), the population the cited studies measure; a 4xx, 5xx
// or redirect decides every bot's verdict by itself (VERDICTS.md) and is
// counted in the adoption table instead. A bot's denominator is the parsed
// sites that have a site_bots row for it (all of them, unless runs with
// different catalogs were mixed).
//
// # Time, panel and strata
//
// Every crawl has a date (sites.crawl_date, schema.CrawlDate), and every
// trend runs over the crawls in date order (schema.CompareCrawls). The
// site_bots rows of each crawl are counted in cells, one per pair of
// (panel, rank bucket): whether the host is in the panel (a parsed site in
// every crawl, site_history.panel) and which of top 1k, 1k-10k, 10k-100k,
// 100k-1M, beyond 1M or unranked its rank falls in. Every figure of a
// trend (all sites or the panel; all ranks or a cumulative stratum such as
// top 10k) is a sum of cells, so one pass counts them all.
//
// # Groups
//
// The tables have one column (group) per crawl with By = ByCrawl, in date
// order; with ByRank one per stratum of the rank, cumulative (top 1k is
// inside top 10k), plus ranks beyond a million when there are any,
// unranked sites and all sites, pooled over every crawl given. With
// TallyOptions.Panel the tables count panel hosts only.
//
// # Feeding
//
// First AddHistory with every site_history row (optional: without it there
// is no panel and no first-block cohorts). Then for each crawl:
// BeginCrawl, AddSignals (optional), AddDomains (with
// TallyOptions.Domains), every AddSites, then AddCaptures,
// AddSiteBots, AddAgents and AddDirectives in any order but AddCaptures
// before AddDirectives (the captures say which files are HTML pages, whose
// keys the directives table leaves out), then EndCrawl.
// The site_bots rows of a site must come together (robotstat sites writes
// them so). Rows need only the columns TallyColumns names. Report may be
// called at any time after EndCrawl.
//
// # Memory
//
// Per crawl: the two site filters (2 bytes per site each, 8 MiB minimum
// each; a third with TallyOptions.Domains), the ranks of ranked sites (hostRanks: some 40 bytes per ranked
// site, reset per crawl) and the signals of sites that have a
// Content-Signal or Content-Usage line (some 100 bytes each, reset per
// crawl), and the capture ids of parsed sites that answered with an HTML
// page (some 40 bytes each, reset per crawl). Over the run: the panel, 8 bytes per panel host; the cells,
// about 300 bytes per catalog bot for each of 12 cells per crawl; the
// first-block cohorts, a few dozen bytes per bot, crawl and cell.
//
// A Tally is not safe for concurrent use.
type Tally struct {
	opts TallyOptions

	groups []*groupAcc
	crawls []*crawlAcc

	crawlOpen   bool
	sitesBegun  bool // AddSites was called for this crawl
	othersBegun bool // a table other than sites and signals has been fed for this crawl
	cur         int  // group of the current crawl (ByCrawl)

	hosts     siteFilter         // hosts of this crawl's parsed sites
	reps      siteFilter         // hosts of the sites that stand for a registered domain (TallyOptions.Domains)
	chosen    siteFilter         // capture ids that answer them without a redirect (tables' sites only)
	shared    map[string][]int64 // capture ids that answer them through one: the ranks of those sites
	ranks     map[uint64]int64   // ranked sites answered without a redirect (ByRank), by capture id hash
	hostRanks map[uint64]int64   // ranked parsed sites, by host hash
	htmlCaps  map[uint64]bool    // this crawl's tables' sites answered by an HTML page, by capture id hash
	peak      int64              // largest filter memory used
	scratch   []int              // groups of a row

	rankedSites int64

	// The panel: hosts that are a parsed site in every crawl, by host hash
	// (h1 of hashString), sorted; set by AddHistory.
	panel       []uint64
	panelSorted bool
	history     bool                 // AddHistory was called
	cohorts     map[string]cohortAcc // by bot, then first-block crawl
	histHosts   [2][numBuckets]int64 // hosts that are a parsed site in some crawl, by panel and bucket
	// the host whose site_history rows are coming in
	histBegun   bool
	lastHistory string
	histBucket  int

	botIndex map[string]int
	bots     []schema.BotIdent
	botCat   []int8 // AI category index of each bot (aiCategories), -1 for none

	agents, directives *topCounter

	// The last capture id a captures, agents or directives row named, and
	// its groups (nil when it is not one of the tables' sites): rows of a
	// capture come together, so most rows cost a string comparison.
	lastID     string
	lastSite   bool
	lastGroups []int

	host hostState // the host whose site_bots rows are coming in

	// Signals of the current crawl: by capture id hash as AddSignals reads
	// them, then by host hash for the parsed sites they answer.
	capSignals  map[uint64]*stance
	hostSignals map[uint64]*stance
	sigID       string
	sig         *stance
}

// Grouping of the report's columns (TallyOptions.By).
const (
	ByCrawl = "crawl"
	ByRank  = "rank"
	// ByDomain is not a value of TallyOptions.By but of robotstat report
	// --by (ColumnsBy): a column per crawl, counting one site per
	// registered domain (TallyOptions.Domains).
	ByDomain = "domain"
)

// ColumnsBy returns the TallyOptions whose columns are those of by:
// ByCrawl, ByRank or ByDomain.
func ColumnsBy(by string) (TallyOptions, error) {
	switch by {
	case ByCrawl, ByRank:
		return TallyOptions{By: by}, nil
	case ByDomain:
		return TallyOptions{By: ByCrawl, Domains: true}, nil
	}
	return TallyOptions{}, fmt.Errorf("columns by %q: want crawl, rank or domain", by)
}

// TallyOptions configure a Tally; the zero value means the defaults.
type TallyOptions struct {
	// By is ByCrawl (default) or ByRank.
	By string
	// Panel restricts the tables to the panel: hosts that are a parsed site
	// in every crawl (site_history.panel). The trends are counted for all
	// sites and for the panel either way.
	Panel bool
	// AllBots adds the table of every catalog bot under every definition.
	AllBots bool
	// Domains counts, of each crawl's sites, only the one that stands for
	// its registered domain (the domains table: robotstat report --by
	// domain), so that a domain with many hosts counts once; sites without
	// a registered domain (IP addresses) are left out. site_history's
	// first blocks and panel still count hosts.
	Domains bool
	// Leading is how many AI bots the trend charts draw one by one; 0 means
	// 6.
	Leading int
	// Rank, when set, ranks each site instead of sites.rank: by host, else
	// registered domain (robotstat report --sites FILE).
	Rank func(host, registeredDomain string) (int64, bool)
	// TopAgents and TopDirectives are the rows of the top named agents and
	// non-standard directives tables; 0 means 15.
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
	if o.TopAgents < 0 || o.TopDirectives < 0 || o.MaxKeys < 0 || o.Leading < 0 {
		return fmt.Errorf("%w: negative size", ErrTallyOptions)
	}
	return nil
}

func (o TallyOptions) withDefaults() TallyOptions {
	if o.By == "" {
		o.By = ByCrawl
	}
	if o.TopAgents == 0 {
		o.TopAgents = 15
	}
	if o.TopDirectives == 0 {
		o.TopDirectives = 15
	}
	if o.MaxKeys == 0 {
		o.MaxKeys = 1 << 17
	}
	if o.Leading == 0 {
		o.Leading = 6
	}
	return o
}

// TallyColumns returns the columns of table t that a Tally reads; the
// other fields of the rows may be left zero. It returns nil for tables the
// summary does not use.
func TallyColumns(t schema.TableName) []string {
	switch t {
	case schema.Sites:
		return []string{"crawl_date", "host", "registered_domain", "capture_id", "url", "final_url", "outcome", "status_class", "reason", "candidates", "rank"}
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
	case schema.Signals:
		return []string{"capture_id", "directive", "line", "group_index", "star_group", "path", "key", "value"}
	case schema.Domains:
		return []string{"host"}
	case schema.SiteHistory:
		return []string{"host", "registered_domain", "bot", "operator", "category", "parsed_crawls", "panel",
			"first_full_crawl", "first_full_matched", "full_crawls", "unblocked_crawl", "rank"}
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

// BotCounts are one bot's verdicts over a set of parsed sites.
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

func (c *BotCounts) add(o *BotCounts) {
	c.Sites += o.Sites
	for m := range NumMatched {
		for d := range NumDefinitions {
			for k := range NumClasses {
				c.Counts[m][d][k] += o.Counts[m][d][k]
			}
		}
	}
}

// groupAcc holds one group's counts.
type groupAcc struct {
	Group
	status    map[[2]string]int64 // by outcome, status class
	adoption  [len(adoptionRows)]int64
	content   [len(contentRows)]int64
	templates map[string]int64
	signals   [len(signalRows)]int64
	cross     [numStances][numBlocks]int64 // training preference by signal, by blocking
}

// Group is one column of the report: a crawl, or a rank stratum.
type Group struct {
	Label string
	// Crawl and Date are the crawl's name and date (days since 1970,
	// sites.crawl_date; 0 for none) when the group is a crawl.
	Crawl string
	Date  int32
	// Captures is every capture of the crawl (ByCrawl only); Candidates
	// the sites' captures of their /robots.txt (the rest are redirect
	// targets on other paths); Sites the sites; Redirected the sites whose
	// answer took a redirect; Ranked the sites with a rank.
	Captures, Candidates, Sites, Redirected, Ranked int64
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

// Rank buckets, exclusive: the cells a site is counted in. A cumulative
// stratum (top 10k) is a union of buckets.
const (
	bucket1k = iota
	bucket10k
	bucket100k
	bucket1M
	bucketOver1M
	bucketUnranked
	numBuckets
)

func bucketOf(rank int64) int {
	switch {
	case rank <= 0:
		return bucketUnranked
	case rank > rankStrata[len(rankStrata)-1].max:
		return bucketOver1M
	}
	for i, st := range rankStrata {
		if rank <= st.max {
			return i
		}
	}
	return bucketOver1M
}

// crawlAcc is one crawl's counts by cell.
type crawlAcc struct {
	name   string
	date   int32
	ranked int64 // sites with a rank
	sites  int64
	cells  [2][numBuckets]cellAcc // [in panel][bucket]
}

// cellAcc counts one cell's parsed sites.
type cellAcc struct {
	parsed int64
	bots   []BotCounts // by bot index
	cats   [numCategories]CatCounts
}

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
		cohorts:    map[string]cohortAcc{},
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

func crawlLabel(crawl string) string {
	if crawl == "" {
		return UnknownCrawlLabel
	}
	return crawl
}

// BeginCrawl starts the rows of one crawl ("" for unknown). captures and
// sites are the numbers of rows of the crawl's captures and sites files
// (the completion records say); sites sizes the site filters. Each crawl
// may be begun once.
func (s *Tally) BeginCrawl(crawl string, captures, sites int64) {
	if s.crawlOpen {
		panic("report: BeginCrawl before EndCrawl")
	}
	for _, c := range s.crawls {
		if c.name == crawl {
			panic(fmt.Sprintf("report: crawl %q begun twice", crawl))
		}
	}
	s.sortPanel()
	s.crawls = append(s.crawls, &crawlAcc{name: crawl})
	if s.opts.By == ByCrawl {
		g := newGroupAcc(crawlLabel(crawl))
		g.Crawl = crawl
		s.groups = append(s.groups, g)
		s.cur = len(s.groups) - 1
		g.Captures = captures
	}
	s.hosts.reset(sites)
	s.chosen.reset(sites)
	if s.opts.Domains {
		s.reps.reset(sites)
	}
	s.peak = max(s.peak, s.hosts.bytes()+s.chosen.bytes()+s.reps.bytes())
	clear(s.ranks)
	clear(s.hostRanks)
	clear(s.htmlCaps)
	clear(s.shared)
	clear(s.capSignals)
	clear(s.hostSignals)
	s.crawlOpen, s.sitesBegun, s.othersBegun, s.lastID, s.lastSite = true, false, false, "", false
	s.host = hostState{}
	s.sigID, s.sig = "", nil
}

// EndCrawl ends the current crawl's rows.
func (s *Tally) EndCrawl() {
	if !s.crawlOpen {
		panic("report: EndCrawl without BeginCrawl")
	}
	s.endHost()
	s.endSignals()
	s.crawlOpen = false
}

func (s *Tally) crawl() *crawlAcc { return s.crawls[len(s.crawls)-1] }

// groupsOf appends to dst the groups a site of the given rank counts in.
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

// inPanel reports whether the host of hash h1 is in the panel.
func (s *Tally) inPanel(h1 uint64) bool {
	_, ok := slices.BinarySearch(s.panel, h1)
	return ok
}

// rankOf returns a site's rank: from TallyOptions.Rank when set, else
// sites.rank.
func (s *Tally) rankOf(host, regdom string, rank int64) int64 {
	if s.opts.Rank == nil {
		return rank
	}
	if r, ok := s.opts.Rank(host, regdom); ok {
		return r
	}
	return 0
}

// AddDomains takes the current crawl's domains rows: with
// TallyOptions.Domains, AddSites counts only the sites they name. They
// must come before the crawl's sites rows.
func (s *Tally) AddDomains(rows []schema.DomainRow) {
	s.mustBeOpen("domains")
	if s.sitesBegun || s.othersBegun {
		panic("report: domains rows after sites rows of the same crawl")
	}
	for i := range rows {
		s.reps.add(hashString(rows[i].Host))
	}
}

// AddSites counts sites rows of the current crawl. All of a crawl's sites
// must come before its other tables' rows (its signals may come before).
func (s *Tally) AddSites(rows []schema.SiteRow) {
	s.mustBeOpen("sites")
	if s.othersBegun {
		panic("report: sites rows after other tables' rows of the same crawl")
	}
	s.endSignals()
	ca := s.crawl()
	if !s.sitesBegun && len(rows) > 0 {
		ca.date = rows[0].CrawlDate
		if s.opts.By == ByCrawl {
			s.groups[s.cur].Date = ca.date
		}
	}
	s.sitesBegun = true
	for i := range rows {
		r := &rows[i]
		k1, k2 := hashString(r.Host)
		if s.opts.Domains && !s.reps.has(k1, k2) {
			continue // not the site that stands for its domain
		}
		rank := s.rankOf(r.Host, r.RegisteredDomain, r.Rank)
		panel := s.inPanel(k1)
		ca.sites++
		if rank > 0 {
			s.rankedSites++
			ca.ranked++
		}
		parsed := r.Outcome == schema.OutcomeParsed
		if parsed {
			ca.cells[b2i(panel)][bucketOf(rank)].parsed++
			s.hosts.add(k1, k2)
			if rank > 0 {
				if s.hostRanks == nil {
					s.hostRanks = map[uint64]int64{}
				}
				s.hostRanks[k1] = rank
			}
			if st := s.capSignals[captureKey(r.CaptureID)]; st != nil {
				if s.hostSignals == nil {
					s.hostSignals = map[uint64]*stance{}
				}
				s.hostSignals[k1] = st
			}
		}
		if s.opts.Panel && !panel {
			continue // the tables count the panel only
		}
		gs := s.groupsOf(rank, s.scratch[:0])
		s.scratch = gs
		for _, g := range gs {
			a := s.groups[g]
			a.Sites++
			a.Candidates += int64(r.Candidates)
			if rank > 0 {
				a.Ranked++
			}
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
			if parsed {
				if st := s.hostSignals[k1]; st != nil {
					for j, sr := range signalRows {
						if sr.test(st) {
							a.signals[j]++
						}
					}
				}
			}
		}
		if !parsed {
			continue
		}
		if r.FinalURL != r.URL {
			if s.shared == nil {
				s.shared = map[string][]int64{}
			}
			s.shared[r.CaptureID] = append(s.shared[r.CaptureID], rank)
			continue
		}
		h1, h2 := hashCaptureID(r.CaptureID)
		s.chosen.add(h1, h2)
		if s.opts.By == ByRank && rank > 0 {
			if s.ranks == nil {
				s.ranks = map[uint64]int64{}
			}
			s.ranks[h1] = rank
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// captureKey is the key of a capture id in the signals maps.
func captureKey(id string) uint64 {
	h1, _ := hashCaptureID(id)
	return h1
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
		if c.LooksHTML && len(s.siteGroups(c.CaptureID)) > 0 {
			if s.htmlCaps == nil {
				s.htmlCaps = map[uint64]bool{}
			}
			s.htmlCaps[captureKey(c.CaptureID)] = true
		}
	}
}

// siteGroups returns the groups of the parsed site a captures, agents or
// directives row belongs to, or nil when its capture is not a parsed site
// the tables count. The slice is valid until the next call.
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

// bot returns the index of a catalog bot, registering it on first sight.
func (s *Tally) bot(bot, operator, category string) int {
	bi, ok := s.botIndex[bot]
	if !ok {
		bi = len(s.bots)
		s.botIndex[bot] = bi
		s.bots = append(s.bots, schema.BotIdent{Bot: bot, Operator: operator, Category: category})
		s.botCat = append(s.botCat, int8(categoryIndex(category)))
	}
	return bi
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
// current crawl's parsed sites, but not the unknown keys of those whose
// robots.txt is an HTML page (captures.looks_html; AddCaptures says
// which): those are the page's script and markup ("accountId: 1284,"),
// not directives anyone wrote. A known key on such a page (a CDN's
// Content-Signal line put before the origin's HTML) still counts. The
// contents table counts the pages.
func (s *Tally) AddDirectives(rows []schema.DirectiveRow) {
	s.mustBeOpen("directives")
	for i := range rows {
		r := &rows[i]
		if r.Kind == schema.KindStandard {
			continue
		}
		if r.Kind == schema.KindUnknown && len(s.htmlCaps) > 0 && s.htmlCaps[captureKey(r.CaptureID)] {
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
// A rare row is left out of the table when no site has it.
var contentRows = [...]struct {
	label string
	test  func(*schema.CaptureRow) bool
	rare  bool
}{
	{"at least one group", func(c *schema.CaptureRow) bool { return c.Groups > 0 }, false},
	{"* disallows /", func(c *schema.CaptureRow) bool { return c.StarDisallowsRoot }, false},
	{"sitemap line", func(c *schema.CaptureRow) bool { return c.Sitemaps > 0 }, false},
	{"crawl-delay line", func(c *schema.CaptureRow) bool { return c.HasCrawlDelay }, false},
	{"rule with * wildcard", func(c *schema.CaptureRow) bool { return c.RulesWithStar > 0 }, false},
	{"rule with $ anchor", func(c *schema.CaptureRow) bool { return c.RulesWithDollar > 0 }, false},
	{"non-standard line (any key but user-agent, allow, disallow)", func(c *schema.CaptureRow) bool { return c.NonstandardLines > 0 }, false},
	{"misspelt key read as a standard one", func(c *schema.CaptureRow) bool { return c.TypoLines > 0 }, false},
	{"line without colon after the key", func(c *schema.CaptureRow) bool { return c.MissingColonLines > 0 }, true},
	{"UTF-8 byte order mark", func(c *schema.CaptureRow) bool { return c.BOM }, true},
	{"HTML page served as robots.txt", func(c *schema.CaptureRow) bool { return c.LooksHTML }, true},
	{"binary data", func(c *schema.CaptureRow) bool { return c.LooksBinary }, true},
	{"over 500 KiB (RFC 9309 parse minimum)", func(c *schema.CaptureRow) bool { return c.Over500KiB }, true},
}
