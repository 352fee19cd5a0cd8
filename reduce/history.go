package reduce

import (
	"context"
	"fmt"
	"slices"
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
// and walks them bot by bot; Options.Workers partitions are built at once,
// each a step of a loop (parallel.go), their rows applied in partition
// order. Memory is a partition's records per worker: about
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

// history collects the history records (historyRec) of every crawl in its
// spill, by the host's partition. Its catalogs and counts are for its one
// owner (Sites, and each crawl's siteBots between its steps); the spill's
// partitions are the steps'.
type history struct {
	ctx      context.Context
	spill    *spill
	parts    partitioner
	bots     []schema.BotIdent // every catalog bot seen, in the order first seen
	botIndex map[string]int    // by token
	cats     map[string]int    // catalog (verdicts metadata) -> id
	catBots  [][]int           // catalog id -> bot index of each position
	sites    []int64           // records per crawl index
}

func newHistory(ctx context.Context, dir string, p int) (*history, error) {
	s, err := newSpill(dir, "history", p)
	if err != nil {
		return nil, err
	}
	return &history{ctx: ctx, spill: s, parts: partitioner(p), botIndex: map[string]int{}, cats: map[string]int{}}, nil
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

// addSites counts n history records of crawl (its index among the
// dataset's) put in the spill.
func (h *history) addSites(crawl int, n int64) {
	for len(h.sites) <= crawl {
		h.sites = append(h.sites, 0)
	}
	h.sites[crawl] += n
}

// siteRecord is one history record, read back, and its crawl's position
// in date order.
type siteRecord struct {
	historyRec
	pos int
}

// build writes the site_history rows of every partition through l's
// writer, the partitions as the steps of a loop (parallel.go). crawls are
// the dataset's crawls by index and dates their sites.crawl_date.
func (h *history) build(l loop, crawls []string, dates []int32) (HistorySummary, error) {
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
	err := l.steps(int(h.parts), nil, func(p int, o *stepOut) error {
		n, err := h.partition(p, pos, names, days, sum.Crawls, o.rows)
		o.n.hist = n
		return err
	}, func(_ int, n stepCounts) {
		sum.Hosts += n.hist.Hosts
		sum.Rows += n.hist.Rows
		sum.Panel += n.hist.Panel
	})
	return sum, err
}

// partition writes the site_history rows of the hosts of partition p and
// counts them (HistorySummary's Hosts, Rows and Panel). It reads h and
// changes nothing of it: the partitions can be built at once.
func (h *history) partition(p int, pos []int, names []*string, days []*int32, nCrawls int, out rowSink) (HistorySummary, error) {
	var sum HistorySummary
	recs, err := h.records(p, pos, nil)
	if err != nil {
		return sum, err
	}
	sort.Slice(recs, func(i, j int) bool {
		if recs[i].host != recs[j].host {
			return recs[i].host < recs[j].host
		}
		return recs[i].pos < recs[j].pos
	})
	var scratch []byte
	for x := 0; x < len(recs); {
		y := x + 1
		for y < len(recs) && recs[y].host == recs[x].host {
			y++
		}
		n, err := h.hostRows(recs[x:y], names, days, nCrawls, out, &scratch)
		if err != nil {
			return sum, err
		}
		sum.Hosts++
		sum.Rows += n
		if parsedCrawls(recs[x:y]) == nCrawls {
			sum.Panel++
		}
		x = y
	}
	return sum, nil
}

// records appends the records of partition p to recs, each with its
// crawl's position in date order (pos, by crawl index).
func (h *history) records(p int, pos []int, recs []siteRecord) ([]siteRecord, error) {
	var r historyRec
	err := h.spill.read(p, &r, func() error {
		if r.crawl >= len(pos) || r.cat >= len(h.catBots) {
			return fmt.Errorf("reduce: a history record names crawl %d of %d, catalog %d of %d", r.crawl, len(pos), r.cat, len(h.catBots))
		}
		rec := siteRecord{historyRec: r, pos: pos[r.crawl]}
		rec.runs = slices.Clone(r.runs) // r.runs aliases the spill's buffer
		recs = append(recs, rec)
		return nil
	})
	return recs, err
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
func (h *history) hostRows(recs []siteRecord, crawls []*string, dates []*int32, nCrawls int, out rowSink, scratch *[]byte) (int64, error) {
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
		idx := h.catBots[recs[i].cat]
		eachRun(recs[i].runs, len(idx), func(c byte, from, to int) {
			for _, b := range idx[from:to] {
				codes[i*nb+b] = c
				present[b] = true
			}
		})
	}
	parsed := int32(parsedCrawls(recs))
	first, last := &recs[0], &recs[len(recs)-1]
	regdom, rank := nullable(last.regdom), nullable(last.rank) // shared by the host's rows
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
