package reduce

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/robotstat/robotstat/schema"
)

// Options configure Sites. Dir and Version are required.
type Options struct {
	// Dir is the dataset's root (robotstat's --out).
	Dir string
	// Version is robotstat's version, recorded in the files written.
	Version string
	// Metadata is recorded in the files' metadata and completion record,
	// as for analyze.
	Metadata map[string]string
	// PartitionCaptures is how many captures a partition holds at most: the
	// unit of work held in memory at once. 0 means DefaultPartitionCaptures.
	PartitionCaptures int
}

// DefaultPartitionCaptures keeps a partition's maps (about 600 bytes per
// capture in the worst stage, resolveSites's candidates, counting the
// garbage collector's headroom) near 150 MiB: the whole step peaked at
// 390 MB RSS with 333,000 captures a partition.
const DefaultPartitionCaptures = 250_000

// maxPartitions bounds the partitions of a crawl: 1024 of 250,000 captures
// are 256M captures, three times Common Crawl's largest robots.txt crawl.
// Past it partitions grow, and memory with them. Spill files are open only
// while read or written, so P costs buffers (spillBuffer per partition of
// each kind written), not file descriptors.
const maxPartitions = 1024

// RunID is the run id of the reduce step's own output (its files are
// part-sites.parquet in the sites and site_bots folders), so a rebuild
// replaces it.
const RunID = "sites"

// Summary says what Sites built, per crawl.
type Summary struct {
	Crawls []CrawlSummary `json:"crawls"`
	// Captures read, over every crawl.
	Captures int64 `json:"captures"`
	// Warnings about the inputs (a crawl without a verdicts table, ...).
	Warnings []string `json:"warnings,omitempty"`
	// History says what site_history holds; nil when the dataset has one
	// crawl and no site_history.
	History *HistorySummary `json:"history,omitempty"`
}

// CrawlSummary counts the sites of one crawl by outcome.
type CrawlSummary struct {
	Crawl string `json:"crawl"`
	// Date is the crawl's date (sites.crawl_date), YYYY-MM-DD; empty when
	// it has none.
	Date      string           `json:"date,omitempty"`
	Captures  int64            `json:"captures"`
	Sites     int64            `json:"sites"`
	ByOutcome map[string]int64 `json:"by_outcome"`
	SiteBots  int64            `json:"site_bots"`
}

// Sites (re)builds the sites and site_bots tables of the dataset at o.Dir
// from every committed captures and verdicts file (see the package
// documentation for the rules), crawl by crawl, and commits them as one
// run (RunID) that replaces the previous build. Memory is bounded by
// Options.PartitionCaptures, whatever the size of the crawl: the captures
// are spilled to partition files in a folder under o.Dir, which is removed
// at the end.
func Sites(ctx context.Context, o Options) (Summary, error) {
	var sum Summary
	if o.PartitionCaptures <= 0 {
		o.PartitionCaptures = DefaultPartitionCaptures
	}
	ix, err := schema.ReadIndex(o.Dir)
	if err != nil {
		return sum, err
	}
	caps, _, err := ix.TableFiles(schema.Captures)
	if err != nil {
		return sum, err
	}
	panels, err := ix.PanelHosts()
	if err != nil {
		return sum, err
	}
	verdicts, _, err := ix.TableFiles(schema.Verdicts)
	if err != nil && !errors.Is(err, schema.ErrNoTable) {
		return sum, err
	}
	rows := map[string]int64{} // committed rows per file path
	for _, r := range ix.Runs {
		for _, f := range r.Files {
			rows[filepath.Join(o.Dir, filepath.FromSlash(f.Path))] = f.Rows
		}
	}
	// A killed build leaves its spill folder behind; builds of one
	// dataset do not run at once (they would replace each other's output),
	// so any spill folder found now is a dead one.
	if old, _ := filepath.Glob(filepath.Join(o.Dir, "_robotstat", "reduce-*")); len(old) > 0 {
		for _, d := range old {
			if err := os.RemoveAll(d); err != nil {
				return sum, fmt.Errorf("reduce: removing a killed build's spill folder: %w", err)
			}
		}
	}
	tmp, err := os.MkdirTemp(filepath.Join(o.Dir, "_robotstat"), "reduce-")
	if err != nil {
		return sum, fmt.Errorf("reduce: spill folder: %w", err)
	}
	defer os.RemoveAll(tmp)

	// Crawls whose captures files hold no row (an input without captures
	// gives zero-row files) have no sites.
	var nonEmpty []schema.File
	for _, f := range caps {
		if rows[f.Path] > 0 {
			nonEmpty = append(nonEmpty, f)
		}
	}
	caps = nonEmpty
	crawls := crawlsOf(caps)
	// site_history spans crawls; with one crawl a host's history is its
	// sites and site_bots rows, and its 91 rows a host would cost most of
	// the step (4 times the CPU of the rest at 1M captures), so it is
	// built only from two crawls on.
	tables := schema.ReduceTables()
	if len(crawls) < 2 {
		tables = slices.DeleteFunc(tables, func(t schema.TableName) bool { return t == schema.SiteHistory })
	}
	ds, err := schema.Create(schema.Options{
		Dir: o.Dir, RunID: RunID, Input: "robotstat sites", Tables: tables,
		Version: o.Version, Metadata: o.Metadata,
	})
	if err != nil {
		return sum, err
	}
	defer ds.Abort()
	out := &writer{sites: schema.WriterOf[schema.SiteRow](ds), bots: schema.WriterOf[schema.SiteBotRow](ds).Local(),
		history: schema.WriterOf[schema.SiteHistoryRow](ds)}

	var all int64
	for _, f := range caps {
		all += rows[f.Path]
	}
	var hist *history
	if slices.Contains(tables, schema.SiteHistory) {
		hist, err = newHistory(ctx, tmp, partitionsFor(all, int64(o.PartitionCaptures), maxPartitions))
		if err != nil {
			return sum, err
		}
		defer hist.remove()
	}
	dates := make([]int32, len(crawls))
	for ci, crawl := range crawls {
		files := filesOf(caps, crawl)
		var n int64
		for _, f := range files {
			n += rows[f.Path]
		}
		c := &crawlRun{ctx: ctx, crawl: crawl, index: ci, p: partitionsFor(n, int64(o.PartitionCaptures), maxPartitions), dir: tmp, out: out, hist: hist,
			hosts: panels[crawl]}
		cs, warns, err := c.run(files, filesOf(verdicts, crawl))
		if err != nil {
			return sum, err
		}
		dates[ci] = c.date
		sum.Crawls = append(sum.Crawls, cs)
		sum.Captures += cs.Captures
		sum.Warnings = append(sum.Warnings, warns...)
	}
	if hist != nil {
		hs, err := hist.build(crawls, dates, out)
		if err != nil {
			return sum, err
		}
		sum.History = &hs
	}
	if err := out.flush(); err != nil {
		return sum, err
	}
	if err := out.bots.Flush(); err != nil {
		return sum, err
	}
	if err := ds.CommitOutcome(ctx, schema.Outcome{Summary: sum}); err != nil {
		return sum, err
	}
	return sum, nil
}

// partitionsFor returns how many partitions hold n records, per at most
// each and at most max of them.
func partitionsFor(n, each int64, max_ int) int {
	return int(min(max(1, (n+each-1)/each), int64(max_)))
}

// crawlsOf returns the crawls of files in their order (TableFiles sorts
// by crawl, the unknown crawl last).
func crawlsOf(files []schema.File) []string {
	var out []string
	for _, f := range files {
		if len(out) == 0 || out[len(out)-1] != f.Crawl {
			out = append(out, f.Crawl)
		}
	}
	return out
}

func filesOf(files []schema.File, crawl string) []schema.File {
	var out []schema.File
	for _, f := range files {
		if f.Crawl == crawl {
			out = append(out, f)
		}
	}
	return out
}

// writer buffers the rows of the reduce step's tables. site_bots goes
// through the bots encoder as blocks, one per site (its bots share the
// site's key and take a few distinct verdict tuples), which is several
// times cheaper than building and encoding its rows one by one.
type writer struct {
	sites       *schema.TableWriter[schema.SiteRow]
	bots        *schema.LocalWriter[schema.SiteBotRow]
	history     *schema.TableWriter[schema.SiteHistoryRow]
	siteRows    []schema.SiteRow
	blocks      []schema.BotsBlock
	historyRows []schema.SiteHistoryRow
}

const (
	writeBatch  = 8192
	blocksBatch = 256 // sites' worth of site_bots rows (about 25,000)
)

func (w *writer) site(r schema.SiteRow) error {
	w.siteRows = append(w.siteRows, r)
	if len(w.siteRows) >= writeBatch {
		return w.flush()
	}
	return nil
}

// siteBots adds the site_bots rows of one site; b's slices must stay
// unchanged until the next flush.
func (w *writer) siteBots(b schema.BotsBlock) error {
	w.blocks = append(w.blocks, b)
	if len(w.blocks) >= blocksBatch {
		return w.flush()
	}
	return nil
}

func (w *writer) historyRow(r schema.SiteHistoryRow) error {
	w.historyRows = append(w.historyRows, r)
	if len(w.historyRows) >= writeBatch {
		return w.flush()
	}
	return nil
}

func (w *writer) flush() error {
	if err := w.sites.Write(w.siteRows); err != nil {
		return err
	}
	if err := schema.WriteBots(w.bots, w.blocks); err != nil {
		return err
	}
	if err := w.history.Write(w.historyRows); err != nil {
		return err
	}
	clear(w.blocks) // drop the references to the sets they name
	w.siteRows, w.blocks, w.historyRows = w.siteRows[:0], w.blocks[:0], w.historyRows[:0]
	return nil
}

// crawlRun is the reduce of one crawl.
type crawlRun struct {
	ctx   context.Context
	crawl string
	index int // of the crawl among the dataset's, for the history
	p     int
	dir   string
	out   *writer
	hist  *history
	date  int32 // sites.crawl_date, once stage A has read the captures
	// hosts, when not nil, are the crawl's sites: a crawl read only by
	// panels (schema.Index.PanelHosts) has its listed hosts as sites, not
	// the hosts of the redirect targets it read for them.
	hosts map[string]bool

	spills []*spill
}

// part returns the partition of a key. The hash is FNV-1a, fixed, so that
// the output (partition by partition) comes in the same order on every run.
func (c *crawlRun) part(key string) int { return int(fnv1a(key) % uint64(c.p)) }

func (c *crawlRun) partOfID(id *[16]byte) int { return c.part(string(id[:])) }

func fnv1a(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

func (c *crawlRun) newSpill(name string) (*spill, error) {
	s, err := newSpill(c.dir, name, c.p)
	if err == nil {
		c.spills = append(c.spills, s)
	}
	return s, err
}

// captureColumns are the captures columns the reduce reads.
var captureColumns = []string{"capture_id", "crawl", "url", "host", "registered_domain", "robots_path", "scheme",
	"fetch_time", "http_status", "status_class", "outcome", "redirect_target", "rank"}

func (c *crawlRun) run(captureFiles, verdictFiles []schema.File) (CrawlSummary, []string, error) {
	defer func() {
		for _, s := range c.spills {
			s.remove()
		}
	}()
	cs := CrawlSummary{Crawl: c.crawl, ByOutcome: map[string]int64{}}
	var warns []string
	// Stage A: every capture by its URL's partition, every redirect target
	// by its own, every candidate (a capture of /robots.txt) by its host's.
	caps, err := c.newSpill("captures")
	if err != nil {
		return cs, nil, err
	}
	targets, err := c.newSpill("targets")
	if err != nil {
		return cs, nil, err
	}
	cands, err := c.newSpill("candidates")
	if err != nil {
		return cs, nil, err
	}
	var b enc
	days := fetchDays{}
	for _, f := range captureFiles {
		err := schema.ReadFile(c.ctx, f.Path, captureColumns, func(rows []schema.CaptureRow) error {
			for i := range rows {
				r := &rows[i]
				var id [16]byte
				if _, err := hex.Decode(id[:], []byte(r.CaptureID)); err != nil || len(r.CaptureID) != 32 {
					return fmt.Errorf("reduce: %s: capture_id %q is not 32 hex digits", f.Path, r.CaptureID)
				}
				cs.Captures++
				class := classOf(r.Outcome)
				fetch := int64(noTime)
				if !r.FetchTime.IsZero() {
					fetch = r.FetchTime.UnixMilli()
					days.add(fetch)
				}
				b = enc(b[:0]).id(id).str(r.URL).byte(class).int(int64(r.HTTPStatus)).str(r.StatusClass).int(fetch).str(r.RedirectTarget)
				if err := caps.add(c.part(authority(r.URL)), b); err != nil {
					return err
				}
				if class == classRedirect && r.RedirectTarget != "" {
					if err := targets.add(c.part(authority(r.RedirectTarget)), enc(b[:0]).str(r.RedirectTarget)); err != nil {
						return err
					}
				}
				if r.RobotsPath && (c.hosts == nil || c.hosts[r.Host]) {
					b = enc(b[:0]).id(id).str(r.URL).str(r.Host).str(r.RegisteredDomain).bool(r.Scheme == "https").
						byte(class).int(int64(r.HTTPStatus)).str(r.StatusClass).int(fetch).str(r.RedirectTarget).int(r.Rank)
					if err := cands.add(c.part(r.Host), b); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			return cs, nil, err
		}
	}
	c.date = crawlDate(c.crawl, days)
	if c.date != 0 {
		cs.Date = schema.DaysDate(c.date).Format(time.DateOnly)
	}
	// Stages B and C: what each redirect target leads to, then each site.
	res, err := c.resolveTargets(caps, targets)
	if err != nil {
		return cs, nil, err
	}
	if err := removeSpills(caps, targets); err != nil {
		return cs, nil, err
	}
	sites, err := c.newSpill("sites")
	if err != nil {
		return cs, nil, err
	}
	if err := c.resolveSites(cands, res, sites, &cs); err != nil {
		return cs, nil, err
	}
	if err := removeSpills(cands, res); err != nil {
		return cs, nil, err
	}
	// Stage D: site_bots from the verdicts of each site's answer.
	n, w, err := c.siteBots(sites, verdictFiles)
	if err != nil {
		return cs, nil, err
	}
	cs.SiteBots = n
	warns = append(warns, w...)
	return cs, warns, nil
}

// removeSpills removes spills a stage is done with, so that their disk
// space and buffers go back before the next stage.
func removeSpills(spills ...*spill) error {
	for _, sp := range spills {
		if err := sp.remove(); err != nil {
			return fmt.Errorf("reduce: %w", err)
		}
	}
	return nil
}

// node is a redirect target URL in memory: the best of its captures that
// answer, and where its redirecting captures lead ("" for a 3xx without a
// Location).
type node struct {
	seen  bool   // the crawl has a capture of this URL
	best  result // best answering capture; no ans when none
	edges []string
}

// resolveTargets computes, for every URL some redirect leads to, the best
// result of following it with at most maxHops-1 further redirects (the
// candidate's own redirect is the first): a layered dynamic programme over
// the redirect graph, res_h(u) = the best of u's answering captures and,
// for each redirect capture at u, res_(h-1) of its target one hop further,
// with res_0(u) = u's best answer, or resultLimit when u only redirects.
// Targets in other partitions are reached by spilling requests to their
// partition and the answers back. It returns the spill of res_(maxHops-1)
// by partition: records (url, result).
func (c *crawlRun) resolveTargets(caps, targets *spill) (*spill, error) {
	nodes, err := c.newSpill("nodes")
	if err != nil {
		return nil, err
	}
	resA, err := c.newSpill("res-a")
	if err != nil {
		return nil, err
	}
	resB, err := c.newSpill("res-b")
	if err != nil {
		return nil, err
	}
	reqs, err := c.newSpill("requests")
	if err != nil {
		return nil, err
	}
	answers, err := c.newSpill("answers")
	if err != nil {
		return nil, err
	}
	var b enc
	for p := range c.p {
		want := map[string]*node{}
		if err := targets.each(p, func(rec []byte) error {
			d := dec{b: rec}
			u := d.str()
			if _, ok := want[u]; !ok {
				want[u] = &node{best: result{class: classUnresolved}}
			}
			return d.err
		}); err != nil {
			return nil, err
		}
		if len(want) == 0 {
			continue
		}
		if err := caps.each(p, func(rec []byte) error {
			d := dec{b: rec}
			id, u := d.id(), d.str()
			n := want[u]
			if n == nil {
				return d.err
			}
			class, status, sclass, fetch, target := d.byte(), int32(d.int()), d.str(), d.int(), d.str()
			if d.err != nil {
				return d.err
			}
			n.seen = true
			if class == classRedirect {
				if !slices.Contains(n.edges, target) {
					n.edges = append(n.edges, target)
				}
				return nil
			}
			r := result{class: class, ans: &capture{id: id, url: u, status: status, statusClass: sclass, fetch: fetch}}
			if n.best.ans == nil || better(&r, &n.best) {
				n.best = r
			}
			return nil
		}); err != nil {
			return nil, err
		}
		// Nodes in URL order, so that every later pass is deterministic.
		urls := make([]string, 0, len(want))
		for u, n := range want {
			if n.seen { // a target never captured has no node: lookups say so
				urls = append(urls, u)
			}
		}
		sort.Strings(urls)
		for _, u := range urls {
			n := want[u]
			b = enc(b[:0]).str(u).result(n.best).uint(uint64(len(n.edges)))
			for _, e := range n.edges {
				b = b.str(e)
				if e != "" {
					if err := reqs.add(c.part(authority(e)), enc(nil).str(e).uint(uint64(p)).str(u)); err != nil {
						return nil, err
					}
				}
			}
			if err := nodes.add(p, b); err != nil {
				return nil, err
			}
			r0 := n.best
			if r0.ans == nil { // only redirects here, and none may be followed
				r0 = resultLimit
			}
			if err := resA.add(p, enc(b[:0]).str(u).result(r0)); err != nil {
				return nil, err
			}
		}
	}
	prev, next := resA, resB
	for range maxHops - 1 {
		if err := c.ctx.Err(); err != nil {
			return nil, err
		}
		// answer every request from the previous layer
		if err := answers.reset(); err != nil {
			return nil, err
		}
		for q := range c.p {
			layer, err := loadResults(prev, q)
			if err != nil {
				return nil, err
			}
			if err := reqs.each(q, func(rec []byte) error {
				d := dec{b: rec}
				v, p, u := d.str(), int(d.uint()), d.str()
				if d.err != nil {
					return d.err
				}
				r := reached(layer, v)
				return answers.add(p, enc(b[:0]).str(u).result(r))
			}); err != nil {
				return nil, err
			}
		}
		// each node takes the best of its answers and its own captures
		if err := next.reset(); err != nil {
			return nil, err
		}
		for p := range c.p {
			best := map[string]result{}
			if err := answers.each(p, func(rec []byte) error {
				d := dec{b: rec}
				u, r := d.str(), d.result()
				if old, ok := best[u]; !ok || better(&r, &old) {
					best[u] = r
				}
				return d.err
			}); err != nil {
				return nil, err
			}
			if err := nodes.each(p, func(rec []byte) error {
				d := dec{b: rec}
				u, own, edges := d.str(), d.result(), int(d.uint())
				r, ok := best[u]
				if own.ans != nil && (!ok || better(&own, &r)) {
					r, ok = own, true
				}
				for range edges {
					if e := d.str(); e == "" {
						if nl := resultNoLocation; !ok || better(&nl, &r) {
							r, ok = nl, true
						}
					}
				}
				if d.err != nil {
					return d.err
				}
				return next.add(p, enc(b[:0]).str(u).result(r))
			}); err != nil {
				return nil, err
			}
		}
		prev, next = next, prev
	}
	// Only the last layer is needed from here on.
	if err := removeSpills(nodes, next, reqs, answers); err != nil {
		return nil, err
	}
	return prev, nil
}

// loadResults reads partition p of a results spill into a map.
func loadResults(s *spill, p int) (map[string]result, error) {
	m := map[string]result{}
	err := s.each(p, func(rec []byte) error {
		d := dec{b: rec}
		u, r := d.str(), d.result()
		m[u] = r
		return d.err
	})
	return m, err
}

// candidate is one capture of a host's /robots.txt.
type candidate struct {
	id           [16]byte
	url          string
	host, regdom string
	https        bool
	class        uint8
	status       int32
	statusClass  string
	fetch        int64
	target       string
	rank         int64
	res          result
}

// preferable reports whether candidate a gives the site a better answer
// than b: the better result class, then https before http, then the later
// fetch, then the smaller capture id. (Hops do not count: two candidates
// that both reach a parsed file are ranked by their own fetch.)
func preferable(a, b *candidate) bool {
	if a.res.class != b.res.class {
		return a.res.class < b.res.class
	}
	if a.https != b.https {
		return a.https
	}
	if a.fetch != b.fetch {
		return a.fetch > b.fetch
	}
	return string(a.id[:]) < string(b.id[:])
}

// resolveSites resolves each candidate (its own answer, or where its
// redirect leads), picks each host's best and writes the sites rows, and
// spills (answer capture id, site) requests for site_bots into sites, by
// the answer's partition (a site without an answer by its host's).
func (c *crawlRun) resolveSites(cands, res, out *spill, cs *CrawlSummary) error {
	creqs, err := c.newSpill("candidate-requests")
	if err != nil {
		return err
	}
	cans, err := c.newSpill("candidate-answers")
	if err != nil {
		return err
	}
	var b enc
	for p := range c.p {
		i := uint64(0)
		if err := cands.each(p, func(rec []byte) error {
			d := dec{b: rec}
			d.id()
			d.str()
			d.str()
			d.str()
			d.bool()
			class := d.byte()
			d.int()
			d.str()
			d.int()
			target := d.str()
			if class == classRedirect && target != "" {
				if err := creqs.add(c.part(authority(target)), enc(b[:0]).str(target).uint(uint64(p)).uint(i)); err != nil {
					return err
				}
			}
			i++
			return d.err
		}); err != nil {
			return err
		}
	}
	for q := range c.p {
		layer, err := loadResults(res, q)
		if err != nil {
			return err
		}
		if err := creqs.each(q, func(rec []byte) error {
			d := dec{b: rec}
			v, p, i := d.str(), int(d.uint()), d.uint()
			if d.err != nil {
				return d.err
			}
			r := reached(layer, v)
			return cans.add(p, enc(b[:0]).uint(i).result(r))
		}); err != nil {
			return err
		}
	}
	if err := removeSpills(creqs); err != nil {
		return err
	}
	for p := range c.p {
		if err := c.ctx.Err(); err != nil {
			return err
		}
		var list []candidate
		if err := cands.each(p, func(rec []byte) error {
			d := dec{b: rec}
			k := candidate{id: d.id(), url: d.str(), host: d.str(), regdom: d.str(), https: d.bool(),
				class: d.byte(), status: int32(d.int()), statusClass: d.str(), fetch: d.int(), target: d.str(), rank: d.int()}
			switch {
			case k.class != classRedirect:
				k.res = result{class: k.class, ans: &capture{id: k.id, url: k.url, status: k.status, statusClass: k.statusClass, fetch: k.fetch}}
			case k.target == "":
				k.res = resultNoLocation
			}
			list = append(list, k)
			return d.err
		}); err != nil {
			return err
		}
		if err := cans.each(p, func(rec []byte) error {
			d := dec{b: rec}
			i, r := d.uint(), d.result()
			if d.err == nil && i < uint64(len(list)) {
				list[i].res = r
			}
			return d.err
		}); err != nil {
			return err
		}
		// By host, each host's candidates together: the best first.
		order := make([]int, len(list))
		for i := range order {
			order[i] = i
		}
		sort.Slice(order, func(x, y int) bool {
			a, b := &list[order[x]], &list[order[y]]
			if a.host != b.host {
				return a.host < b.host
			}
			return preferable(a, b)
		})
		for x := 0; x < len(order); {
			best := &list[order[x]]
			y := x + 1
			for y < len(order) && list[order[y]].host == best.host {
				y++
			}
			row := siteRow(c.crawl, best, int32(y-x))
			row.CrawlDate = c.date
			cs.Sites++
			cs.ByOutcome[row.Outcome]++
			if err := c.out.site(row); err != nil {
				return err
			}
			// the site_bots request, by the answer's partition
			b = enc(b[:0]).str(best.host).str(best.regdom).byte(best.res.class).int(best.rank).bool(best.res.ans != nil)
			q := c.part(best.host)
			if a := best.res.ans; a != nil {
				b = b.id(a.id)
				q = c.partOfID(&a.id)
			}
			if err := out.add(q, b); err != nil {
				return err
			}
			x = y
		}
	}
	return nil
}

// siteRow is the sites row of a host whose chosen candidate is k.
func siteRow(crawl string, k *candidate, candidates int32) schema.SiteRow {
	r := schema.SiteRow{
		Crawl: crawl, Host: k.host, RegisteredDomain: k.regdom, URL: k.url,
		Outcome: classOutcome[k.res.class], HTTPStatus: k.status, StatusClass: k.statusClass, Candidates: candidates, Rank: k.rank,
	}
	if a := k.res.ans; a != nil {
		r.CaptureID = hex.EncodeToString(a.id[:])
		r.FinalURL = a.url
		r.StatusClass = a.statusClass
		hops := int32(k.res.hops)
		r.RedirectHops = &hops
		r.HTTPStatus = a.status
	}
	if k.res.reason != reasonNone {
		r.Reason = reasonNames[k.res.reason]
	}
	return r
}

// siteRequest is a site waiting for its answer's verdicts.
type siteRequest struct {
	host   string
	regdom string
	class  uint8
	rank   int64
	hasAns bool
	id     [16]byte
}

// siteBots writes the site_bots rows of every site of sites (the requests
// resolveSites spilled): for a site answered by a capture, that capture's
// verdicts (from its verdicts row) for each bot of the catalog the row
// follows; for a site without one, the verdicts its outcome implies.
func (c *crawlRun) siteBots(sites *spill, files []schema.File) (int64, []string, error) {
	var warns []string
	if len(files) == 0 {
		return 0, []string{fmt.Sprintf("crawl %q has no verdicts table: no site_bots rows (run analyze with the default tables)", crawlLabel(c.crawl))}, nil
	}
	vs, err := c.newSpill("verdicts")
	if err != nil {
		return 0, nil, err
	}
	var catalogs []*schema.BotList
	var metas []string // each catalog's metadata, the key the history knows it by
	catIndex := map[string]int{}
	var b enc
	for _, f := range files {
		info, err := schema.ReadFileInfo(f.Path)
		if err != nil {
			return 0, nil, err
		}
		meta := info.Metadata[schema.MetaBots]
		ci, ok := catIndex[meta]
		if !ok {
			l, err := schema.ParseBotsMetadata(meta)
			if err != nil {
				return 0, nil, fmt.Errorf("reduce: %s: %w", f.Path, err)
			}
			ci = len(catalogs)
			catalogs = append(catalogs, l)
			metas = append(metas, meta)
			catIndex[meta] = ci
		}
		err = schema.ReadFile(c.ctx, f.Path, []string{"capture_id", "tuples", "bot_tuple"}, func(rows []schema.VerdictsRow) error {
			for i := range rows {
				var id [16]byte
				if _, err := hex.Decode(id[:], []byte(rows[i].CaptureID)); err != nil {
					return fmt.Errorf("reduce: %s: capture_id %q: %w", f.Path, rows[i].CaptureID, err)
				}
				b = enc(b[:0]).id(id).uint(uint64(ci)).str(rows[i].Tuples).str(rows[i].BotTuple)
				if err := vs.add(c.partOfID(&id), b); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return 0, nil, err
		}
	}
	if len(catalogs) > 1 {
		warns = append(warns, fmt.Sprintf("crawl %q was analysed with %d bot catalogs; each site's rows follow its answer's, sites without one the first", crawlLabel(c.crawl), len(catalogs)))
	}
	sets := newVerdictSets(catalogs)
	var n int64
	for q := range c.p {
		if len(sets.sets) > maxVerdictSets {
			sets.drop()
		}
		var reqs []siteRequest
		need := map[[16]byte]bool{}
		if err := sites.each(q, func(rec []byte) error {
			d := dec{b: rec}
			r := siteRequest{host: d.str(), regdom: d.str(), class: d.byte(), rank: d.int(), hasAns: d.bool()}
			if r.hasAns {
				r.id = d.id()
				need[r.id] = true
			}
			reqs = append(reqs, r)
			return d.err
		}); err != nil {
			return 0, nil, err
		}
		// Each answer's verdicts, as the index of their distinct set: a
		// crawl's captures take few distinct verdicts rows, so each is
		// parsed once and a capture costs a map entry.
		got := make(map[[16]byte]int32, len(need))
		var bad error
		if err := vs.each(q, func(rec []byte) error {
			d := dec{b: rec}
			id := d.id()
			if !need[id] {
				return d.err
			}
			ci, tuples, botTuple := int(d.uint()), d.raw(), d.raw()
			if d.err != nil {
				return d.err
			}
			if _, dup := got[id]; dup {
				return nil // the same capture committed twice: its verdicts are the same
			}
			k, err := sets.of(ci, tuples, botTuple, &id)
			if err != nil {
				bad = cmp.Or(bad, err)
				return nil
			}
			got[id] = k
			return nil
		}); err != nil {
			return 0, nil, err
		}
		if bad != nil {
			warns = append(warns, fmt.Sprintf("crawl %q: %v (those sites take the verdicts their outcome implies)", crawlLabel(c.crawl), bad))
		}
		sort.Slice(reqs, func(i, j int) bool { return reqs[i].host < reqs[j].host })
		for _, r := range reqs {
			// A site's rows go out together, in catalog order, and so does
			// its history record: the bots' verdicts as codes.
			k, ok := got[r.id]
			if !ok || !r.hasAns {
				k = sets.implied(r.class)
			}
			set := &sets.sets[k]
			if err := c.out.siteBots(schema.BotsBlock{Key: schema.Key{Crawl: c.crawl, Host: r.host},
				Bots: set.bots, Verdicts: set.tuples, Index: set.index}); err != nil {
				return 0, nil, err
			}
			n += int64(set.bots.Len())
			if c.hist != nil {
				if err := c.hist.add(r.host, r.regdom, c.index, r.class, r.rank, c.hist.catalog(metas[set.cat], set.bots), set.codes); err != nil {
					return 0, nil, err
				}
			}
		}
	}
	return n, warns, nil
}

// verdictSet is one distinct verdicts row of a crawl, decoded: a catalog,
// its tuples and each bot's tuple, as a BotsBlock takes them.
type verdictSet struct {
	cat    int // index of bots among the crawl's catalogs
	bots   *schema.BotList
	tuples []schema.BotVerdict
	index  []int32
	codes  []byte // each bot's verdict as site_history codes it
}

func newVerdictSet(cat int, bots *schema.BotList, tuples []schema.BotVerdict, index []int32) verdictSet {
	codes := make([]byte, len(index))
	for i, k := range index {
		codes[i] = verdictCode(&tuples[k])
	}
	return verdictSet{cat: cat, bots: bots, tuples: tuples, index: index, codes: codes}
}

// verdictSets decodes each distinct verdicts row of a crawl once. Sets
// are never changed once made, so blocks may share them.
type verdictSets struct {
	catalogs []*schema.BotList
	byKey    map[string]int32 // catalog byte, tuples, NUL, bot_tuple -> sets index
	sets     []verdictSet
	classes  map[uint8]int32 // implied verdicts, by result class
	key      []byte
}

// maxVerdictSets bounds the sets kept from one partition to the next:
// past it (a crawl of that many distinct verdicts rows) the next partition
// decodes them again from scratch, which only costs time.
const maxVerdictSets = 1 << 18

func newVerdictSets(catalogs []*schema.BotList) *verdictSets {
	return &verdictSets{catalogs: catalogs, byKey: map[string]int32{}, classes: map[uint8]int32{}}
}

// of returns the set of a verdicts row of catalog ci.
func (v *verdictSets) of(ci int, tuples, botTuple []byte, id *[16]byte) (int32, error) {
	v.key = append(binary.AppendUvarint(v.key[:0], uint64(ci)), tuples...)
	v.key = append(append(v.key, 0), botTuple...)
	if k, ok := v.byKey[string(v.key)]; ok {
		return k, nil
	}
	row := schema.VerdictsRow{Key: schema.Key{CaptureID: hex.EncodeToString(id[:])}, Tuples: string(tuples), BotTuple: string(botTuple)}
	t, idx, err := schema.ParseVerdicts(&row, v.catalogs[ci].Len())
	if err != nil {
		return 0, err
	}
	index := make([]int32, len(idx))
	for i, x := range idx {
		index[i] = int32(x)
	}
	k := int32(len(v.sets))
	v.sets = append(v.sets, newVerdictSet(ci, v.catalogs[ci], t, index))
	v.byKey[string(v.key)] = k
	return k, nil
}

// implied returns the set of a site whose answer has no verdicts row: the
// first catalog's bots, all with the verdicts its outcome implies.
func (v *verdictSets) implied(class uint8) int32 {
	if k, ok := v.classes[class]; ok {
		return k
	}
	l := v.catalogs[0]
	k := int32(len(v.sets))
	v.sets = append(v.sets, newVerdictSet(0, l, []schema.BotVerdict{implied(class)}, make([]int32, l.Len())))
	v.classes[class] = k
	return k
}

// drop forgets every set, between partitions (the indexes of a
// partition's answers point into sets). Blocks already handed to the writer
// keep theirs: they hold the sets' slices, not indexes.
func (v *verdictSets) drop() {
	v.sets = nil
	clear(v.byKey)
	clear(v.classes)
}

var truth = [2]bool{false, true}

// implied returns the verdicts of a site whose answer has no verdicts row:
// those its outcome implies (RFC 9309 §2.3.1), as for a capture.
func implied(class uint8) schema.BotVerdict {
	switch class {
	case classUnavailable:
		return schema.BotVerdict{Matched: schema.MatchedNone, RootAllowed: &truth[1], Verdict: schema.VerdictNone,
			Somesite: schema.VerdictNone, CIC: schema.CICNone, CCClass: schema.CCClassAllowAll}
	case classUnreachable:
		return schema.BotVerdict{Matched: schema.MatchedNone, RootAllowed: &truth[0], Verdict: schema.VerdictFull,
			Somesite: schema.VerdictFull, CIC: schema.CICAll, CCClass: schema.CCClassDisallowAll}
	}
	return schema.BotVerdict{Matched: schema.MatchedNone, Verdict: schema.VerdictUnknown,
		Somesite: schema.VerdictUnknown, CIC: schema.VerdictUnknown, CCClass: schema.VerdictUnknown}
}

func crawlLabel(c string) string {
	if c == "" {
		return "(unknown)"
	}
	return c
}
