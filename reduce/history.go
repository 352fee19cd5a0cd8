package reduce

import (
	"context"
	"sort"

	"github.com/robotstat/robotstat/schema"
)

// site_history: one row per host and catalog bot over every crawl, built
// from the site_bots rows as siteBots writes them. Each site's rows leave
// siteBots together; beside them goes one history record per site (host,
// crawl, outcome class, rank and every bot's matched and verdict as one
// byte, run-length coded), spilled by the host's hash into partitions that
// live across crawls. Once every crawl is done, build reads one partition
// at a time, orders each host's records by crawl date (schema.CompareCrawls)
// and walks them bot by bot. Memory is one partition's records: about
// Options.PartitionCaptures site records (a host's sites over all crawls)
// of some 100 bytes each, whatever the number of crawls and hosts.

// HistorySummary says what site_history holds.
type HistorySummary struct {
	// Crawls is the number of crawls with sites: a host in the panel is a
	// parsed site in each of them.
	Crawls int `json:"crawls"`
	// Hosts are the hosts that are a site in some crawl; Panel those that
	// are a parsed site in every crawl.
	Hosts int64 `json:"hosts"`
	Panel int64 `json:"panel"`
	// Rows is the number of site_history rows: hosts times bots.
	Rows int64 `json:"rows"`
}

// history collects the history records of every crawl. It is used by one
// goroutine.
type history struct {
	ctx      context.Context
	spill    *spill
	p        int
	bots     []schema.BotIdent // every catalog bot seen, in the order first seen
	botIndex map[string]int    // by token
	cats     map[string]int    // catalog (verdicts metadata) -> id
	catBots  [][]int           // catalog id -> bot index of each position
	sites    []int64           // records per crawl index
	buf      enc
}

func newHistory(ctx context.Context, dir string, p int) (*history, error) {
	s, err := newSpill(dir, "history", p)
	if err != nil {
		return nil, err
	}
	return &history{ctx: ctx, spill: s, p: p, botIndex: map[string]int{}, cats: map[string]int{}}, nil
}

func (h *history) remove() { h.spill.remove() }

// catalog returns the id of the catalog l, known by its metadata meta.
func (h *history) catalog(meta string, l *schema.BotList) int {
	if id, ok := h.cats[meta]; ok {
		return id
	}
	idx := make([]int, l.Len())
	for i := range l.Len() {
		b := l.At(i)
		bi, ok := h.botIndex[b.Bot]
		if !ok {
			bi = len(h.bots)
			h.botIndex[b.Bot] = bi
			h.bots = append(h.bots, b)
		}
		idx[i] = bi
	}
	id := len(h.catBots)
	h.cats[meta] = id
	h.catBots = append(h.catBots, idx)
	return id
}

// Verdict codes: matched in the high nibble, verdict in the low one.
const (
	codeNamed, codeStar, codeNoGroup, codeOtherMatch = 0, 1, 2, 3
	codeFull, codePartial, codeNone, codeUnknown     = 0, 1, 2, 3
)

// The values of site_history's matched and verdict columns by code, as the
// pointers its rows share (nil for NULL).
var (
	codeMatched = [...]*string{ptr(schema.MatchedNamed), ptr(schema.MatchedStar), ptr(schema.MatchedNone), nil}
	codeVerdict = [...]*string{ptr(schema.VerdictFull), ptr(schema.VerdictPartial), ptr(schema.VerdictNone), ptr(schema.VerdictUnknown)}
)

func ptr[T any](v T) *T { return &v }

// nullable returns a pointer to v, or nil (NULL) for its zero value.
func nullable[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

func verdictCode(v *schema.BotVerdict) byte {
	m := byte(codeOtherMatch)
	switch v.Matched {
	case schema.MatchedNamed:
		m = codeNamed
	case schema.MatchedStar:
		m = codeStar
	case schema.MatchedNone:
		m = codeNoGroup
	}
	d := byte(codeUnknown)
	switch v.Verdict {
	case schema.VerdictFull:
		d = codeFull
	case schema.VerdictPartial:
		d = codePartial
	case schema.VerdictNone:
		d = codeNone
	}
	return m<<4 | d
}

// add records one site: host (and its registered domain) in crawl (its index among the dataset's), its
// outcome class and rank, and each bot's code in the order of catalog cat.
func (h *history) add(host, regdom string, crawl int, class uint8, rank int64, cat int, codes []byte) error {
	for len(h.sites) <= crawl {
		h.sites = append(h.sites, 0)
	}
	h.sites[crawl]++
	b := enc(h.buf[:0]).str(host).str(regdom).uint(uint64(crawl)).byte(class).int(rank).uint(uint64(cat))
	// Run-length: most bots of a site take the * group's verdict.
	runs := 0
	for i := 0; i < len(codes); {
		j := i + 1
		for j < len(codes) && codes[j] == codes[i] {
			j++
		}
		runs++
		i = j
	}
	b = b.uint(uint64(runs))
	for i := 0; i < len(codes); {
		j := i + 1
		for j < len(codes) && codes[j] == codes[i] {
			j++
		}
		b = b.byte(codes[i]).uint(uint64(j - i))
		i = j
	}
	h.buf = b
	return h.spill.add(int(fnv1a(host)%uint64(h.p)), b)
}

// siteRecord is one history record, read back.
type siteRecord struct {
	host  string
	regd  string
	crawl int // index among the dataset's crawls
	pos   int // position in date order
	class uint8
	rank  int64
	cat   int
	codes []byte // run-length pairs as written: code, run, code, run...
}

// build writes the site_history rows of every partition to out. crawls are
// the dataset's crawls by index and dates their sites.crawl_date.
func (h *history) build(crawls []string, dates []int32, out *writer) (HistorySummary, error) {
	var sum HistorySummary
	order := make([]int, len(crawls))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool {
		a, b := order[i], order[j]
		return schema.CompareCrawls(crawls[a], dates[a], crawls[b], dates[b]) < 0
	})
	pos := make([]int, len(crawls))
	for p, ci := range order {
		pos[ci] = p
	}
	for _, n := range h.sites {
		if n > 0 {
			sum.Crawls++
		}
	}
	// The crawl columns' values, shared by every row: nil for the unknown
	// crawl and a crawl without a date.
	names := make([]*string, len(crawls))
	days := make([]*int32, len(crawls))
	for i := range crawls {
		names[i], days[i] = nullable(crawls[i]), nullable(dates[i])
	}
	var recs []siteRecord
	var scratch []byte
	for p := range h.p {
		if err := h.ctx.Err(); err != nil {
			return sum, err
		}
		recs = recs[:0]
		if err := h.spill.each(p, func(rec []byte) error {
			d := dec{b: rec}
			r := siteRecord{host: d.str(), regd: d.str(), crawl: int(d.uint()), class: d.byte(), rank: d.int(), cat: int(d.uint())}
			runs := int(d.uint())
			start := len(rec) - len(d.b)
			for range runs {
				d.byte()
				d.uint()
			}
			if d.err != nil {
				return d.err
			}
			r.codes = append([]byte(nil), rec[start:len(rec)-len(d.b)]...)
			r.pos = pos[r.crawl]
			recs = append(recs, r)
			return nil
		}); err != nil {
			return sum, err
		}
		sort.Slice(recs, func(i, j int) bool {
			if recs[i].host != recs[j].host {
				return recs[i].host < recs[j].host
			}
			return recs[i].pos < recs[j].pos
		})
		for x := 0; x < len(recs); {
			y := x + 1
			for y < len(recs) && recs[y].host == recs[x].host {
				y++
			}
			n, err := h.hostRows(recs[x:y], names, days, sum.Crawls, out, &scratch)
			if err != nil {
				return sum, err
			}
			sum.Hosts++
			sum.Rows += n
			if parsedCrawls(recs[x:y]) == sum.Crawls {
				sum.Panel++
			}
			x = y
		}
	}
	return sum, nil
}

func parsedCrawls(recs []siteRecord) int {
	n := 0
	for i := range recs {
		if recs[i].class == classParsed {
			n++
		}
	}
	return n
}

// hostRows writes the rows of one host, whose records (one per crawl in
// which it is a site) come in date order; crawls and dates are the crawl
// columns' values by crawl index.
func (h *history) hostRows(recs []siteRecord, crawls []*string, dates []*int32, nCrawls int, out *writer, scratch *[]byte) (int64, error) {
	// codes[i*nb+b] is bot b's code in record i; 0xff where the record's
	// catalog lacks the bot.
	nb := len(h.bots)
	codes := (*scratch)[:0]
	for range len(recs) * nb {
		codes = append(codes, 0xff)
	}
	*scratch = codes
	present := make([]bool, nb)
	for i := range recs {
		d := dec{b: recs[i].codes}
		at := 0
		idx := h.catBots[recs[i].cat]
		for len(d.b) > 0 {
			c, run := d.byte(), int(d.uint())
			for range run {
				if at < len(idx) {
					codes[i*nb+idx[at]] = c
					present[idx[at]] = true
				}
				at++
			}
		}
	}
	parsed := int32(parsedCrawls(recs))
	first, last := &recs[0], &recs[len(recs)-1]
	regdom, rank := nullable(last.regd), nullable(last.rank) // shared by the host's rows
	var n int64
	for b := range nb {
		if !present[b] {
			continue
		}
		id := h.bots[b]
		row := schema.SiteHistoryRow{Host: first.host, RegisteredDomain: regdom, Bot: id.Bot, Operator: id.Operator, Category: id.Category,
			Crawls: int32(len(recs)), ParsedCrawls: parsed, Panel: int(parsed) == nCrawls,
			FirstCrawl: crawls[first.crawl], LastCrawl: crawls[last.crawl], Rank: rank}
		prev := -1 // verdict in the previous parsed crawl
		unblocked := false
		for i := range recs {
			c := codes[i*nb+b]
			if c == 0xff || recs[i].class != classParsed {
				continue
			}
			crawl := recs[i].crawl
			v := int(c & 0x0f)
			switch {
			case v == codeFull:
				if row.FullCrawls == 0 {
					row.FirstFullCrawl, row.FirstFullDate, row.FirstFullMatched = crawls[crawl], dates[crawl], codeMatched[c>>4]
				}
				row.FullCrawls++
				row.LastFullCrawl = crawls[crawl]
			case row.FullCrawls > 0 && !unblocked:
				row.UnblockedCrawl, unblocked = crawls[crawl], true
			}
			if prev >= 0 && v != prev {
				row.Changes++
			}
			prev = v
			row.LastVerdict = codeVerdict[v]
		}
		if err := out.historyRow(row); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
