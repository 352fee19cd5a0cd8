package reduce

import (
	"encoding/hex"
	"fmt"

	"github.com/robotstat/robotstat/schema"
)

// captureColumns are the captures columns the reduce reads.
var captureColumns = []string{"capture_id", "crawl", "url", "host", "registered_domain", "robots_path", "scheme",
	"fetch_time", "http_status", "status_class", "outcome", "redirect_target", "rank"}

// captureSpills are what stage A makes of a crawl's captures.
type captureSpills struct {
	caps    *spill // captureRec, by the URL's partition
	targets *spill // targetRec, by the target's partition
	cands   *spill // candidateRec, by the host's partition
	creqs   *spill // candRequest, by the target's partition
	days    fetchDays
}

// spillCaptures is stage A: it reads the crawl's captures files and
// spills every capture by its URL's partition, every redirect target by
// its own and every candidate, a capture of /robots.txt, by its host's;
// for a candidate that redirects, it asks what its target leads to (a
// candRequest to the target's partition, naming the candidate by its
// position among its partition's). It counts the captures into cs and
// their fetch days.
//
// The files' row groups are read as the steps of a loop (parallel.go),
// up to Options.Workers at once, and their records reach the spills in
// file and row group order, as if read one after the other: a row group's
// candidates are held until it is applied, when the positions its
// requests name become known (the candidates its partition already
// holds, plus those of the group before it).
func (c *crawlRun) spillCaptures(files []schema.File, cs *CrawlSummary) (captureSpills, error) {
	var out captureSpills
	sp, err := c.newSpills("captures", "targets", "candidates", "candidate-requests")
	if err != nil {
		return out, err
	}
	out = captureSpills{caps: sp[0], targets: sp[1], cands: sp[2], creqs: sp[3], days: fetchDays{}}
	groups, err := rowGroupsOf(files, nil)
	if err != nil {
		return out, err
	}
	err = c.steps(len(groups), []*spill{out.caps, out.targets}, func(u int, o *stepOut) error {
		g := groups[u]
		caps, targets := o.sinks[0], o.sinks[1]
		var cands bufSink
		type request struct {
			p   int // the target's partition
			req candRequest
		}
		var reqs []request // req.index counts the group's own candidates of its partition
		days := fetchDays{}
		var n int64
		var cand candidateRec
		var target targetRec
		err := schema.ReadRowGroup(c.ctx, g.path, g.index, captureColumns, func(rows []schema.CaptureRow) error {
			for i := range rows {
				r := &rows[i]
				var id [16]byte
				if _, err := hex.Decode(id[:], []byte(r.CaptureID)); err != nil || len(r.CaptureID) != 32 {
					return fmt.Errorf("reduce: %s: capture_id %q is not 32 hex digits", g.path, r.CaptureID)
				}
				n++
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
				redirects := cand.class == classRedirect && r.RedirectTarget != ""
				if redirects {
					target.url = r.RedirectTarget
					if err := targets.put(c.parts.of(authority(r.RedirectTarget)), &target); err != nil {
						return err
					}
				}
				if !r.RobotsPath || (c.hosts != nil && !c.hosts[r.Host]) {
					continue
				}
				p := c.parts.of(r.Host)
				if redirects {
					reqs = append(reqs, request{p: c.parts.of(authority(r.RedirectTarget)),
						req: candRequest{target: r.RedirectTarget, from: p, index: cands.count(p)}})
				}
				cand.host, cand.regdom, cand.https, cand.rank = r.Host, r.RegisteredDomain, r.Scheme == "https", r.Rank
				if err := cands.put(p, &cand); err != nil {
					return err
				}
			}
			return nil
		})
		o.apply = func() error {
			for i := range reqs {
				r := &reqs[i]
				r.req.index += out.cands.count(r.req.from)
				if err := out.creqs.put(r.p, &r.req); err != nil {
					return err
				}
			}
			cs.Captures += n
			for day, k := range days {
				out.days[day] += k
			}
			return cands.drainTo(out.cands)
		}
		return err
	}, nil)
	return out, err
}

// rowGroup is one row group of a file: a step of stage A or D's reading.
type rowGroup struct {
	path  string
	index int
	file  int // the file's, among the files listed
}

// rowGroupsOf lists the row groups of files, in file order, and calls
// each, when not nil, with each file's footer.
func rowGroupsOf(files []schema.File, each func(fi int, info schema.FileInfo) error) ([]rowGroup, error) {
	var out []rowGroup
	for fi, f := range files {
		info, err := schema.ReadFileInfo(f.Path)
		if err != nil {
			return nil, err
		}
		if each != nil {
			if err := each(fi, info); err != nil {
				return nil, err
			}
		}
		for gi := range info.RowGroups {
			out = append(out, rowGroup{path: f.Path, index: gi, file: fi})
		}
	}
	return out, nil
}
