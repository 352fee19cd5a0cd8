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
func (c *crawlRun) spillCaptures(files []schema.File, cs *CrawlSummary) (captureSpills, error) {
	var out captureSpills
	sp, err := c.newSpills("captures", "targets", "candidates", "candidate-requests")
	if err != nil {
		return out, err
	}
	out = captureSpills{caps: sp[0], targets: sp[1], cands: sp[2], creqs: sp[3], days: fetchDays{}}
	var cand candidateRec
	var target targetRec
	var req candRequest
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
					out.days.add(fetch)
				}
				cand.captureRec = captureRec{id: id, url: r.URL, class: classOf(r.Outcome), status: r.HTTPStatus,
					statusClass: r.StatusClass, fetch: fetch, target: r.RedirectTarget}
				if err := out.caps.put(c.parts.of(authority(r.URL)), &cand.captureRec); err != nil {
					return err
				}
				redirects := cand.class == classRedirect && r.RedirectTarget != ""
				if redirects {
					target.url = r.RedirectTarget
					if err := out.targets.put(c.parts.of(authority(r.RedirectTarget)), &target); err != nil {
						return err
					}
				}
				if !r.RobotsPath || (c.hosts != nil && !c.hosts[r.Host]) {
					continue
				}
				p := c.parts.of(r.Host)
				if redirects {
					req = candRequest{target: r.RedirectTarget, from: p, index: out.cands.count(p)}
					if err := out.creqs.put(c.parts.of(authority(r.RedirectTarget)), &req); err != nil {
						return err
					}
				}
				cand.host, cand.regdom, cand.https, cand.rank = r.Host, r.RegisteredDomain, r.Scheme == "https", r.Rank
				if err := out.cands.put(p, &cand); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return out, err
		}
	}
	return out, nil
}
