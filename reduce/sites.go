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
	in, err := readInputs(o.Dir)
	if err != nil {
		return sum, err
	}
	tmp, err := spillFolder(o.Dir)
	if err != nil {
		return sum, err
	}
	defer os.RemoveAll(tmp)

	crawls := crawlsOf(in.captures)
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
	out := newWriter(ds)
	var hist *history
	if slices.Contains(tables, schema.SiteHistory) {
		hist, err = newHistory(ctx, tmp, partitionsFor(in.rowsOf(in.captures), int64(o.PartitionCaptures), maxPartitions))
		if err != nil {
			return sum, err
		}
		defer hist.remove()
	}
	dates := make([]int32, len(crawls))
	for ci, crawl := range crawls {
		files := filesOf(in.captures, crawl)
		p := partitionsFor(in.rowsOf(files), int64(o.PartitionCaptures), maxPartitions)
		c := &crawlRun{ctx: ctx, crawl: crawl, index: ci, parts: partitioner(p), dir: tmp, out: out, hist: hist}
		cs, warns, err := c.run(files, filesOf(in.verdicts, crawl))
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
	if err := out.close(); err != nil {
		return sum, err
	}
	if err := ds.CommitOutcome(ctx, schema.Outcome{Summary: sum}); err != nil {
		return sum, err
	}
	return sum, nil
}

// inputs are the committed files Sites reads.
type inputs struct {
	// captures are the captures files that hold rows (an input without
	// captures gives zero-row files, and a crawl of only those has no
	// sites), in TableFiles' order; verdicts are every verdicts file.
	captures, verdicts []schema.File
	rows               map[string]int64 // committed rows per file path
}

func readInputs(dir string) (inputs, error) {
	var in inputs
	ix, err := schema.ReadIndex(dir)
	if err != nil {
		return in, err
	}
	caps, _, err := ix.TableFiles(schema.Captures)
	if err != nil {
		return in, err
	}
	in.verdicts, _, err = ix.TableFiles(schema.Verdicts)
	if err != nil && !errors.Is(err, schema.ErrNoTable) {
		return in, err
	}
	in.rows = map[string]int64{}
	for _, r := range ix.Runs {
		for _, f := range r.Files {
			in.rows[filepath.Join(dir, filepath.FromSlash(f.Path))] = f.Rows
		}
	}
	for _, f := range caps {
		if in.rows[f.Path] > 0 {
			in.captures = append(in.captures, f)
		}
	}
	return in, nil
}

// rowsOf returns the committed rows of files.
func (in inputs) rowsOf(files []schema.File) int64 {
	var n int64
	for _, f := range files {
		n += in.rows[f.Path]
	}
	return n
}

// spillFolder makes the build's spill folder under the dataset's
// _robotstat folder. A killed build leaves its spill folder behind; builds
// of one dataset do not run at once (they would replace each other's
// output), so any spill folder found now is a dead one, and goes.
func spillFolder(dir string) (string, error) {
	old, _ := filepath.Glob(filepath.Join(dir, "_robotstat", "reduce-*"))
	for _, d := range old {
		if err := os.RemoveAll(d); err != nil {
			return "", fmt.Errorf("reduce: removing a killed build's spill folder: %w", err)
		}
	}
	tmp, err := os.MkdirTemp(filepath.Join(dir, "_robotstat"), "reduce-")
	if err != nil {
		return "", fmt.Errorf("reduce: spill folder: %w", err)
	}
	return tmp, nil
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

// crawlRun is the reduce of one crawl, in four stages, each a loop over
// the partitions:
//
//	A  spillCaptures   the captures files -> captures, targets, candidates
//	B  resolveTargets  captures, targets -> where each redirect target leads
//	C  resolveSites    candidates, B's last layer -> sites rows, site requests
//	D  siteBots        site requests, the verdicts files -> site_bots rows, history records
//
// Within a stage, each partition's step is a function of its own
// partition's records: it reads only partition p of its input spills,
// keeps its state to itself, and writes partition p of its own outputs and,
// through a sink, records bound for other partitions and rows. The crawlRun
// itself, the partitioner and the crawl's date are not changed by a step.
// So the steps of one stage may run at once (each writer of a sink of its
// own, appended in partition order, to keep the output the same); here they
// run one after the other.
type crawlRun struct {
	ctx   context.Context
	crawl string
	index int // of the crawl among the dataset's, for the history
	parts partitioner
	dir   string
	out   *writer
	hist  *history
	date  int32 // sites.crawl_date, once stage A has read the captures

	spills []*spill
}

// partitioner maps a key to one of its partitions. The hash is FNV-1a,
// fixed, so that the output (partition by partition) comes in the same
// order on every run. A partitioner is a count: copy it freely.
type partitioner int

func (n partitioner) of(key string) int { return int(fnv1a(key) % uint64(n)) }

func (n partitioner) ofID(id *[16]byte) int { return n.of(string(id[:])) }

func fnv1a(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// sink takes records bound for partitions of the next step: a *spill.
type sink interface {
	put(p int, r spillRecord) error
}

// newSpill creates a spill of the crawl's partitions, removed when the
// crawl is done (if a stage has not removed it before).
func (c *crawlRun) newSpill(name string) (*spill, error) {
	s, err := newSpill(c.dir, name, int(c.parts))
	if err == nil {
		c.spills = append(c.spills, s)
	}
	return s, err
}

// newSpills creates a spill for each name.
func (c *crawlRun) newSpills(names ...string) ([]*spill, error) {
	out := make([]*spill, len(names))
	for i, name := range names {
		s, err := c.newSpill(name)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

func (c *crawlRun) run(captureFiles, verdictFiles []schema.File) (CrawlSummary, []string, error) {
	defer func() {
		for _, s := range c.spills {
			s.remove()
		}
	}()
	cs := CrawlSummary{Crawl: c.crawl, ByOutcome: map[string]int64{}}
	caps, targets, cands, days, err := c.spillCaptures(captureFiles, &cs)
	if err != nil {
		return cs, nil, err
	}
	c.date = crawlDate(c.crawl, days)
	if c.date != 0 {
		cs.Date = schema.DaysDate(c.date).Format(time.DateOnly)
	}
	res, err := c.resolveTargets(caps, targets)
	if err != nil {
		return cs, nil, err
	}
	if err := removeSpills(caps, targets); err != nil {
		return cs, nil, err
	}
	sites, err := c.resolveSites(cands, res, &cs)
	if err != nil {
		return cs, nil, err
	}
	if err := removeSpills(cands, res); err != nil {
		return cs, nil, err
	}
	n, warns, err := c.siteBots(sites, verdictFiles)
	if err != nil {
		return cs, nil, err
	}
	cs.SiteBots = n
	return cs, warns, nil
}

func crawlLabel(c string) string {
	if c == "" {
		return "(unknown)"
	}
	return c
}

// captureColumns are the captures columns the reduce reads.
var captureColumns = []string{"capture_id", "crawl", "url", "host", "registered_domain", "robots_path", "scheme",
	"fetch_time", "http_status", "status_class", "outcome", "redirect_target", "rank"}

// spillCaptures is stage A: it reads the crawl's captures files and
// spills every capture by its URL's partition (captureRec), every
// redirect target by its own (targetRec) and every candidate, a capture of
// /robots.txt, by its host's (candidateRec). It counts the captures into
// cs and their fetch days.
func (c *crawlRun) spillCaptures(files []schema.File, cs *CrawlSummary) (caps, targets, cands *spill, days fetchDays, err error) {
	sp, err := c.newSpills("captures", "targets", "candidates")
	if err != nil {
		return nil, nil, nil, nil, err
	}
	caps, targets, cands = sp[0], sp[1], sp[2]
	days = fetchDays{}
	var cand candidateRec
	var target targetRec
	for _, f := range files {
		err := schema.ReadFile(c.ctx, f.Path, captureColumns, func(rows []schema.CaptureRow) error {
			for i := range rows {
				r := &rows[i]
				var id [16]byte
				if _, err := hex.Decode(id[:], []byte(r.CaptureID)); err != nil || len(r.CaptureID) != 32 {
					return fmt.Errorf("reduce: %s: capture_id %q is not 32 hex digits", f.Path, r.CaptureID)
				}
				cs.Captures++
				fetch := int64(noTime)
				if !r.FetchTime.IsZero() {
					fetch = r.FetchTime.UnixMilli()
					days.add(fetch)
				}
				cand.captureRec = captureRec{id: id, url: r.URL, class: classOf(r.Outcome), status: r.HTTPStatus,
					statusClass: r.StatusClass, fetch: fetch, target: r.RedirectTarget}
				if err := caps.put(c.parts.of(authority(r.URL)), &cand.captureRec); err != nil {
					return err
				}
				if cand.class == classRedirect && r.RedirectTarget != "" {
					target.url = r.RedirectTarget
					if err := targets.put(c.parts.of(authority(r.RedirectTarget)), &target); err != nil {
						return err
					}
				}
				if r.RobotsPath {
					cand.host, cand.regdom, cand.https, cand.rank = r.Host, r.RegisteredDomain, r.Scheme == "https", r.Rank
					if err := cands.put(c.parts.of(r.Host), &cand); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			return nil, nil, nil, nil, err
		}
	}
	return caps, targets, cands, days, nil
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

func newWriter(ds *schema.Dataset) *writer {
	return &writer{sites: schema.WriterOf[schema.SiteRow](ds), bots: schema.WriterOf[schema.SiteBotRow](ds).Local(),
		history: schema.WriterOf[schema.SiteHistoryRow](ds)}
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

// close writes out what the writer holds; the dataset's commit closes the
// files.
func (w *writer) close() error {
	if err := w.flush(); err != nil {
		return err
	}
	return w.bots.Flush()
}

// resolveTargets is stage B: for every URL some redirect leads to, the
// best result of following it with at most maxHops-1 further redirects
// (the candidate's own redirect is the first). It is a layered dynamic
// programme over the redirect graph:
//
//	res_0(u) = the best of u's answering captures, or resultLimit when u only redirects
//	res_h(u) = the best of u's answering captures, resultNoLocation if one of
//	           u's captures is a 3xx without a Location, and, for each
//	           redirect u -> v, follow(res_(h-1)(v)) (resultNotCaptured when
//	           the crawl never fetched v)
//
// Targets in other partitions are reached by spilling hopRequests to their
// partition and the answers (urlResult) back, one round per layer. It
// returns the spill of res_(maxHops-1) by partition (urlResult records).
func (c *crawlRun) resolveTargets(caps, targets *spill) (*spill, error) {
	sp, err := c.newSpills("nodes", "res-a", "res-b", "requests", "answers")
	if err != nil {
		return nil, err
	}
	nodes, layer, next, reqs, answers := sp[0], sp[1], sp[2], sp[3], sp[4]
	for p := range int(c.parts) {
		if err := targetNodes(p, c.parts, targets, caps, nodes, layer, reqs); err != nil {
			return nil, err
		}
	}
	for range maxHops - 1 {
		if err := c.ctx.Err(); err != nil {
			return nil, err
		}
		if err := answers.reset(); err != nil {
			return nil, err
		}
		for q := range int(c.parts) {
			if err := answerHops(q, layer, reqs, answers); err != nil {
				return nil, err
			}
		}
		if err := next.reset(); err != nil {
			return nil, err
		}
		for p := range int(c.parts) {
			if err := nextLayer(p, answers, nodes, next); err != nil {
				return nil, err
			}
		}
		layer, next = next, layer
	}
	// Only the last layer is needed from here on.
	if err := removeSpills(nodes, next, reqs, answers); err != nil {
		return nil, err
	}
	return layer, nil
}

// node is a redirect target URL in memory while its partition's nodes are
// made: the best of its captures that answer, and where its redirecting
// captures lead ("" for a 3xx without a Location).
type node struct {
	seen  bool   // the crawl has a capture of this URL
	best  result // best answering capture; no ans when none
	edges []string
}

// targetNodes makes the nodes of partition p: every target URL of the
// partition that the crawl captured, from the partition's captures. It
// writes each node (nodeRec) and its res_0 (urlResult) to partition p of
// nodes and layer, and a hopRequest for each of its redirects to the
// target's partition of reqs. Nodes go out in URL order, so that every
// later pass is deterministic.
func targetNodes(p int, parts partitioner, targets, caps *spill, nodes, layer, reqs sink) error {
	want := map[string]*node{}
	var t targetRec
	if err := targets.read(p, &t, func() error {
		if _, ok := want[t.url]; !ok {
			want[t.url] = &node{best: result{class: classUnresolved}}
		}
		return nil
	}); err != nil {
		return err
	}
	if len(want) == 0 {
		return nil
	}
	var k captureRec
	if err := caps.read(p, &k, func() error {
		n := want[k.url]
		if n == nil {
			return nil
		}
		n.seen = true
		if k.class == classRedirect {
			if !slices.Contains(n.edges, k.target) {
				n.edges = append(n.edges, k.target)
			}
			return nil
		}
		if r := k.answer(); n.best.ans == nil || better(&r, &n.best) {
			n.best = r
		}
		return nil
	}); err != nil {
		return err
	}
	urls := make([]string, 0, len(want))
	for u, n := range want {
		if n.seen { // a target never captured has no node: lookups say so
			urls = append(urls, u)
		}
	}
	sort.Strings(urls)
	var rec nodeRec
	var req hopRequest
	var res urlResult
	for _, u := range urls {
		n := want[u]
		rec = nodeRec{url: u, own: n.best, noLocation: slices.Contains(n.edges, "")}
		if err := nodes.put(p, &rec); err != nil {
			return err
		}
		for _, e := range n.edges {
			if e != "" {
				req = hopRequest{target: e, from: p, url: u}
				if err := reqs.put(parts.of(authority(e)), &req); err != nil {
					return err
				}
			}
		}
		res = urlResult{url: u, res: n.best}
		if res.res.ans == nil { // only redirects here, and none may be followed
			res.res = resultLimit
		}
		if err := layer.put(p, &res); err != nil {
			return err
		}
	}
	return nil
}

// answerHops answers the hopRequests of partition q from the previous
// layer's results of q, each to the asking node's partition of answers.
func answerHops(q int, layer, reqs *spill, answers sink) error {
	prev, err := loadResults(layer, q)
	if err != nil {
		return err
	}
	var req hopRequest
	var ans urlResult
	return reqs.read(q, &req, func() error {
		ans = urlResult{url: req.url, res: reached(prev, req.target)}
		return answers.put(req.from, &ans)
	})
}

// nextLayer writes the next layer's result of every node of partition p:
// the best of its answers, its own answering capture and, when one of its
// captures is a 3xx without a Location, resultNoLocation.
func nextLayer(p int, answers, nodes *spill, next sink) error {
	best := map[string]result{}
	var ans urlResult
	if err := answers.read(p, &ans, func() error {
		if old, ok := best[ans.url]; !ok || better(&ans.res, &old) {
			best[ans.url] = ans.res
		}
		return nil
	}); err != nil {
		return err
	}
	var n nodeRec
	var res urlResult
	return nodes.read(p, &n, func() error {
		r, ok := best[n.url]
		if n.own.ans != nil && (!ok || better(&n.own, &r)) {
			r, ok = n.own, true
		}
		if nl := resultNoLocation; n.noLocation && (!ok || better(&nl, &r)) {
			r = nl
		}
		res = urlResult{url: n.url, res: r}
		return next.put(p, &res)
	})
}

// loadResults reads partition p of a results spill into a map.
func loadResults(s *spill, p int) (map[string]result, error) {
	m := map[string]result{}
	var r urlResult
	err := s.read(p, &r, func() error {
		m[r.url] = r.res
		return nil
	})
	return m, err
}

// candidate is one capture of a host's /robots.txt and what it resolved
// to.
type candidate struct {
	candidateRec
	res result
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

// resolveSites is stage C: it resolves each candidate (its own answer, or
// where its redirect leads by the last layer of resolveTargets, res),
// picks each host's best and writes the sites rows, and returns the spill
// of site requests (siteRequest) for site_bots, by the answer's partition
// (a site without an answer by its host's). It counts the sites into cs.
func (c *crawlRun) resolveSites(cands, res *spill, cs *CrawlSummary) (*spill, error) {
	sp, err := c.newSpills("candidate-requests", "candidate-answers", "sites")
	if err != nil {
		return nil, err
	}
	creqs, cans, sites := sp[0], sp[1], sp[2]
	for p := range int(c.parts) {
		if err := candidateRequests(p, c.parts, cands, creqs); err != nil {
			return nil, err
		}
	}
	for q := range int(c.parts) {
		if err := answerCandidates(q, res, creqs, cans); err != nil {
			return nil, err
		}
	}
	if err := removeSpills(creqs); err != nil {
		return nil, err
	}
	pick := sitePicker{crawl: c.crawl, date: c.date, parts: c.parts}
	var n siteCounts
	for p := range int(c.parts) {
		if err := c.ctx.Err(); err != nil {
			return nil, err
		}
		if err := pick.sites(p, cands, cans, c.out, sites, &n); err != nil {
			return nil, err
		}
	}
	cs.Sites += n.sites
	for class, k := range n.byClass {
		if k > 0 {
			cs.ByOutcome[classOutcome[class]] += k
		}
	}
	return sites, nil
}

// candidateRequests asks, for each candidate of partition p that
// redirects, what its target leads to: a candRequest to the target's
// partition of creqs, naming the candidate by its position in p.
func candidateRequests(p int, parts partitioner, cands *spill, creqs sink) error {
	i := 0
	var k candidateRec
	var req candRequest
	return cands.read(p, &k, func() error {
		if k.class == classRedirect && k.target != "" {
			req = candRequest{target: k.target, from: p, index: i}
			if err := creqs.put(parts.of(authority(k.target)), &req); err != nil {
				return err
			}
		}
		i++
		return nil
	})
}

// answerCandidates answers the candRequests of partition q from res, the
// last layer of resolveTargets, each to the candidate's partition of cans.
func answerCandidates(q int, res, creqs *spill, cans sink) error {
	layer, err := loadResults(res, q)
	if err != nil {
		return err
	}
	var req candRequest
	var ans candAnswer
	return creqs.read(q, &req, func() error {
		ans = candAnswer{index: req.index, res: reached(layer, req.target)}
		return cans.put(req.from, &ans)
	})
}

// siteCounts counts the sites of a crawl by class.
type siteCounts struct {
	sites   int64
	byClass [classUnresolved + 1]int64
}

// sitePicker picks the sites of a crawl, one partition at a time. It is a
// value that its steps do not change.
type sitePicker struct {
	crawl string
	date  int32
	parts partitioner
}

// rowSink takes the rows the steps make: a *writer.
type rowSink interface {
	site(schema.SiteRow) error
	siteBots(schema.BotsBlock) error
}

// sites writes the sites rows of the hosts of partition p: each host's
// candidates, resolved by their answers (cans), and the best of them. It
// puts each site's siteRequest in the answer's partition of reqs (the
// host's when the site has no answer) and counts the sites into n.
func (k sitePicker) sites(p int, cands, cans *spill, rows rowSink, reqs sink, n *siteCounts) error {
	list, err := resolvedCandidates(p, cands, cans)
	if err != nil {
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
	var req siteRequest
	for x := 0; x < len(order); {
		best := &list[order[x]]
		y := x + 1
		for y < len(order) && list[order[y]].host == best.host {
			y++
		}
		row := siteRow(k.crawl, best, int32(y-x))
		row.CrawlDate = k.date
		n.sites++
		n.byClass[best.res.class]++
		if err := rows.site(row); err != nil {
			return err
		}
		req = siteRequest{host: best.host, regdom: best.regdom, class: best.res.class, rank: best.rank}
		q := k.parts.of(best.host)
		if a := best.res.ans; a != nil {
			req.hasAns, req.id = true, a.id
			q = k.parts.ofID(&a.id)
		}
		if err := reqs.put(q, &req); err != nil {
			return err
		}
		x = y
	}
	return nil
}

// resolvedCandidates reads the candidates of partition p and gives each
// its result: its own answer, no-location for a 3xx without a Location,
// or the answer to its candRequest.
func resolvedCandidates(p int, cands, cans *spill) ([]candidate, error) {
	var list []candidate
	var k candidateRec
	if err := cands.read(p, &k, func() error {
		c := candidate{candidateRec: k}
		switch {
		case k.class != classRedirect:
			c.res = k.answer()
		case k.target == "":
			c.res = resultNoLocation
		}
		list = append(list, c)
		return nil
	}); err != nil {
		return nil, err
	}
	var a candAnswer
	if err := cans.read(p, &a, func() error {
		if a.index >= len(list) {
			return fmt.Errorf("reduce: a candidate answer names candidate %d of %d", a.index, len(list))
		}
		list[a.index].res = a.res
		return nil
	}); err != nil {
		return nil, err
	}
	return list, nil
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
	var n, records int64
	for q := range int(c.parts) {
		if err := c.ctx.Err(); err != nil {
			return 0, nil, err
		}
		got, err := b.partition(q, sites, vs, c.out, hist)
		if err != nil {
			return 0, nil, err
		}
		n += got.rows
		records += got.sites
		if got.bad != nil {
			warns = append(warns, fmt.Sprintf("crawl %q: %v (those sites take the verdicts their outcome implies)", crawlLabel(c.crawl), got.bad))
		}
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
	var rec verdictRec
	for _, f := range files {
		info, err := schema.ReadFileInfo(f.Path)
		if err != nil {
			return nil, nil, err
		}
		meta := info.Metadata[schema.MetaBots]
		ci, ok := catIndex[meta]
		if !ok {
			l, err := schema.ParseBotsMetadata(meta)
			if err != nil {
				return nil, nil, fmt.Errorf("reduce: %s: %w", f.Path, err)
			}
			ci = len(catalogs)
			catalogs = append(catalogs, l)
			metas = append(metas, meta)
			catIndex[meta] = ci
		}
		err = schema.ReadFile(c.ctx, f.Path, []string{"capture_id", "tuples", "bot_tuple"}, func(rows []schema.VerdictsRow) error {
			for i := range rows {
				rec = verdictRec{cat: ci, tuples: []byte(rows[i].Tuples), botTuple: []byte(rows[i].BotTuple)}
				if _, err := hex.Decode(rec.id[:], []byte(rows[i].CaptureID)); err != nil {
					return fmt.Errorf("reduce: %s: capture_id %q: %w", f.Path, rows[i].CaptureID, err)
				}
				if err := vs.put(c.parts.ofID(&rec.id), &rec); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
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
	var reqs []siteRequest
	need := map[[16]byte]bool{}
	var r siteRequest
	if err := sites.read(q, &r, func() error {
		if r.hasAns {
			need[r.id] = true
		}
		reqs = append(reqs, r)
		return nil
	}); err != nil {
		return out, err
	}
	// Each answer's verdicts, as the index of their distinct set: a
	// crawl's captures take few distinct verdicts rows, so each is parsed
	// once and a capture costs a map entry.
	got := make(map[[16]byte]int32, len(need))
	var v verdictRec
	if err := vs.read(q, &v, func() error {
		if !need[v.id] {
			return nil
		}
		if _, dup := got[v.id]; dup {
			return nil // the same capture committed twice: its verdicts are the same
		}
		if v.cat >= len(sets.catalogs) {
			return fmt.Errorf("reduce: a verdicts record names catalog %d of %d", v.cat, len(sets.catalogs))
		}
		k, err := sets.of(v.cat, v.tuples, v.botTuple, &v.id)
		if err != nil {
			out.bad = cmp.Or(out.bad, err)
			return nil
		}
		got[v.id] = k
		return nil
	}); err != nil {
		return out, err
	}
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
