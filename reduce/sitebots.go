package reduce

import (
	"cmp"
	"encoding/hex"
	"fmt"
	"sort"

	"github.com/robotstat/robotstat/schema"
)

// siteBots is stage D: it writes the site_bots rows of every site of sites
// (the requests resolveSites spilled): for a site answered by a capture,
// that capture's verdicts (from its verdicts row) for each bot of the
// catalog the row follows; for a site without one, the verdicts its
// outcome implies. Beside each site's rows goes its history record, when
// the dataset has a history.
func (c *crawlRun) siteBots(sites *spill, files []schema.File) (int64, []string, error) {
	if len(files) == 0 {
		return 0, []string{fmt.Sprintf("crawl %q has no verdicts table: no site_bots rows (run analyze with the default tables)", crawlLabel(c.crawl))}, nil
	}
	vs, err := c.newSpill("verdicts")
	if err != nil {
		return 0, nil, err
	}
	catalogs, metas, err := c.spillVerdicts(files, vs)
	if err != nil {
		return 0, nil, err
	}
	var warns []string
	if len(catalogs) > 1 {
		warns = append(warns, fmt.Sprintf("crawl %q was analysed with %d bot catalogs; each site's rows follow its answer's, sites without one the first", crawlLabel(c.crawl), len(catalogs)))
	}
	b := botsStep{crawl: c.crawl, index: c.index, sets: newVerdictSets(catalogs)}
	var hist sink
	if c.hist != nil {
		// The history's ids of the catalogs, made here once, so that the
		// steps only read them.
		hist, b.histParts = c.hist.spill, c.hist.parts
		b.histCats = make([]int, len(catalogs))
		for i, l := range catalogs {
			b.histCats[i] = c.hist.catalog(metas[i], l)
		}
	}
	// Each step running at once takes a botsStep of its own (its cache of
	// decoded verdicts), handed from step to step through idle.
	idle := make(chan *botsStep, max(c.workers, 1))
	idle <- &b
	for range cap(idle) - 1 {
		o := b
		o.sets = newVerdictSets(catalogs)
		idle <- &o
	}
	outs := []*spill{}
	if hist != nil {
		outs = append(outs, c.hist.spill)
	}
	var n, records int64
	err = c.steps(int(c.parts), outs, func(q int, o *stepOut) error {
		var h sink
		if hist != nil {
			h = o.sinks[0]
		}
		st := <-idle
		defer func() { idle <- st }()
		var err error
		o.n.bots, err = st.partition(q, sites, vs, o.rows, h)
		return err
	}, func(_ int, got stepCounts) {
		n += got.bots.rows
		records += got.bots.sites
		if got.bots.bad != nil {
			warns = append(warns, fmt.Sprintf("crawl %q: %v (those sites take the verdicts their outcome implies)", crawlLabel(c.crawl), got.bots.bad))
		}
	})
	if err != nil {
		return 0, nil, err
	}
	if c.hist != nil {
		c.hist.addSites(c.index, records)
	}
	return n, warns, nil
}

// spillVerdicts reads the crawl's verdicts files into vs, each row by its
// capture's partition (verdictRec), and returns the distinct bot catalogs
// of the files, in the order first seen, with the metadata each is known
// by.
func (c *crawlRun) spillVerdicts(files []schema.File, vs *spill) ([]*schema.BotList, []string, error) {
	var catalogs []*schema.BotList
	var metas []string // each catalog's metadata, the key the history knows it by
	catIndex := map[string]int{}
	fileCat := make([]int, len(files)) // each file's catalog
	groups, err := rowGroupsOf(files, func(fi int, info schema.FileInfo) error {
		meta := info.Metadata[schema.MetaBots]
		ci, ok := catIndex[meta]
		if !ok {
			l, err := schema.ParseBotsMetadata(meta)
			if err != nil {
				return fmt.Errorf("reduce: %s: %w", files[fi].Path, err)
			}
			ci = len(catalogs)
			catalogs = append(catalogs, l)
			metas = append(metas, meta)
			catIndex[meta] = ci
		}
		fileCat[fi] = ci
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	// The files' row groups are read as the steps of a loop, as stage A
	// reads the captures: their records reach vs in file order.
	err = c.steps(len(groups), []*spill{vs}, func(u int, o *stepOut) error {
		g := groups[u]
		var rec verdictRec
		var buf []byte // rec's tuples and bot_tuple, copied from the row
		return schema.ReadRowGroup(c.ctx, g.path, g.index, []string{"capture_id", "tuples", "bot_tuple"}, func(rows []schema.VerdictsRow) error {
			for i := range rows {
				buf = append(append(buf[:0], rows[i].Tuples...), rows[i].BotTuple...)
				rec = verdictRec{cat: fileCat[g.file], tuples: buf[:len(rows[i].Tuples)], botTuple: buf[len(rows[i].Tuples):]}
				if _, err := hex.Decode(rec.id[:], []byte(rows[i].CaptureID)); err != nil {
					return fmt.Errorf("reduce: %s: capture_id %q: %w", g.path, rows[i].CaptureID, err)
				}
				if err := o.sinks[0].put(c.parts.ofID(&rec.id), &rec); err != nil {
					return err
				}
			}
			return nil
		})
	}, nil)
	if err != nil {
		return nil, nil, err
	}
	return catalogs, metas, nil
}

// botsStep writes the site_bots rows and history records of a crawl's
// sites, one partition at a time. Its fields other than sets are not
// changed by its steps; sets is a cache of decoded verdicts rows that a
// step fills and another may reuse, so each goroutine needs a botsStep of
// its own.
type botsStep struct {
	crawl     string
	index     int   // the crawl's, among the dataset's
	histCats  []int // the history's id of each catalog; nil without a history
	histParts partitioner
	sets      *verdictSets
}

// botsCounts is what a partition of site_bots made: rows, sites (history
// records) and the first verdicts row that did not parse.
type botsCounts struct {
	rows, sites int64
	bad         error
}

// partition writes the site_bots rows of the sites of partition q (their
// siteRequests) to rows, and their history records to hist when it is not
// nil.
func (b *botsStep) partition(q int, sites, vs *spill, rows rowSink, hist sink) (botsCounts, error) {
	var out botsCounts
	sets := b.sets
	if len(sets.sets) > maxVerdictSets {
		sets.drop()
	}
	reqs, need, err := readSiteRequests(q, sites)
	if err != nil {
		return out, err
	}
	got, bad, err := b.verdictsOf(q, vs, need)
	if err != nil {
		return out, err
	}
	out.bad = bad
	sort.Slice(reqs, func(i, j int) bool { return reqs[i].host < reqs[j].host })
	var h historyRec
	var codes []byte
	for _, r := range reqs {
		// A site's rows go out together, in catalog order, and so does
		// its history record: the bots' verdicts as codes.
		k, ok := got[r.id]
		if !ok || !r.hasAns {
			k = sets.implied(r.class)
		}
		set := &sets.sets[k]
		if err := rows.siteBots(schema.BotsBlock{Key: schema.Key{Crawl: b.crawl, Host: r.host},
			Bots: set.bots, Verdicts: set.tuples, Index: set.index}); err != nil {
			return out, err
		}
		out.rows += int64(set.bots.Len())
		if hist != nil {
			codes = appendRuns(codes[:0], set.codes)
			h = historyRec{host: r.host, regdom: r.regdom, crawl: b.index, class: r.class, rank: r.rank, cat: b.histCats[set.cat], runs: codes}
			if err := hist.put(b.histParts.of(r.host), &h); err != nil {
				return out, err
			}
			out.sites++
		}
	}
	return out, nil
}

// readSiteRequests returns the site requests of partition q and the
// answers they need the verdicts of.
func readSiteRequests(q int, sites *spill) ([]siteRequest, map[[16]byte]bool, error) {
	var reqs []siteRequest
	need := map[[16]byte]bool{}
	var r siteRequest
	err := sites.read(q, &r, func() error {
		if r.hasAns {
			need[r.id] = true
		}
		reqs = append(reqs, r)
		return nil
	})
	return reqs, need, err
}

// verdictsOf returns the verdicts of each capture of need from the
// verdicts rows of partition q, as the index of their distinct set: a
// crawl's captures take few distinct verdicts rows, so each is parsed once
// and a capture costs a map entry. bad is the first row that did not
// parse (its site takes the verdicts its outcome implies).
func (b *botsStep) verdictsOf(q int, vs *spill, need map[[16]byte]bool) (got map[[16]byte]int32, bad, err error) {
	got = make(map[[16]byte]int32, len(need))
	var v verdictRec
	err = vs.read(q, &v, func() error {
		if !need[v.id] {
			return nil
		}
		if _, dup := got[v.id]; dup {
			return nil // the same capture committed twice: its verdicts are the same
		}
		if v.cat >= len(b.sets.catalogs) {
			return fmt.Errorf("reduce: a verdicts record names catalog %d of %d", v.cat, len(b.sets.catalogs))
		}
		k, err := b.sets.of(v.cat, v.tuples, v.botTuple, &v.id)
		if err != nil {
			bad = cmp.Or(bad, err)
			return nil
		}
		got[v.id] = k
		return nil
	})
	return got, bad, err
}
