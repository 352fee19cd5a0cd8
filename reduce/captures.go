package reduce

import (
	"encoding/hex"
	"fmt"

	"github.com/robotstat/robotstat/schema"
)

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
