package pipeline

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/robotstat/robotstat/internal/weburl"
	"github.com/robotstat/robotstat/wayback"
)

// Panel makes a run read a site list's captures out of crawls by name
// through each crawl's URL index (Config.Panel), record by record, instead
// of reading the crawls' whole robotstxt subsets: a crawl input
// CC-MAIN-YYYY-WW is then one unit, whose captures are every capture of
// the crawl's robotstxt subset whose host is listed, whatever its path,
// and the captures their redirects lead to, followed through the same
// crawl's index as robotstat sites follows them (at most
// parse.MaxRedirects, RFC 9309 §2.3.1.2). So the rows of a listed host are
// the rows a whole-crawl analyze gives it, capture ids, sources and
// offsets included, and its site resolves alike; a redirect target whose
// host is not listed is read, but is not a site of the panel. ccpanel.go
// reads Common Crawl's index; the unit's UnitResult.Coverage says what it
// found.
//
// A Panel is read, never written, by Run.
type Panel struct {
	// Hosts are the listed hosts, lower-case ASCII as NormalizeHost gives
	// them, each once (SiteList makes them).
	Hosts []string
	// WaybackBase is the Wayback Machine's root a wayback:FROM..TO input
	// is read from (wayback.DefaultBase when empty); WaybackArchive the
	// folder its answers are archived in, one folder per site (none when
	// empty). See wayback.go.
	WaybackBase, WaybackArchive string
	// WaybackUserAgent names the client to the archive (its requests
	// carry Go's default otherwise): a product token and a contact URL,
	// so that the archive's staff can reach a run before blocking it.
	WaybackUserAgent string
}

// Coverage is what a panel unit found of its crawl (UnitResult.Coverage):
// of the Listed hosts, those the index lists a capture of /robots.txt of
// (Found), those it lists none of (NotCaptured: the crawl has no site for
// them), and those whose answer could not be read whole (Failed: an index
// file that could list them, or one of their records or of the records
// their redirects lead to, could not be read; each such read is a located
// error). Found + NotCaptured + Failed = Listed. The rest says what the
// unit read: index files, requests and bytes (Index*), records and their
// requests and bytes (Record*), the redirect targets it looked up, and how
// much of the index the statistics and page index let it skip: over its
// Lookups (a file looked up once for the listed hosts and once per wave
// of redirects that may lie in it), the row groups of the files and those
// whose url_surtkey statistics could hold a wanted key, the url_surtkey
// pages of those and the ones read. A plain value, encoded as JSON in
// completion records.
type Coverage struct {
	Crawl       string   `json:"crawl"`
	Listed      int      `json:"listed"`
	Found       int      `json:"found"`
	NotCaptured int      `json:"not_captured"`
	Failed      int      `json:"failed"`
	FailedHosts []string `json:"failed_hosts,omitempty"` // the first MaxFailedHosts, sorted

	IndexFiles       int   `json:"index_files"`
	IndexFilesFailed int   `json:"index_files_failed,omitempty"`
	IndexRequests    int64 `json:"index_requests"`
	IndexBytes       int64 `json:"index_bytes"`
	Lookups          int   `json:"index_lookups"`
	RowGroups        int   `json:"index_row_groups"`
	RowGroupsRead    int   `json:"index_row_groups_read"`
	Pages            int   `json:"index_key_pages"`
	PagesRead        int   `json:"index_key_pages_read"`

	Records         int64 `json:"records"`
	RecordRequests  int64 `json:"record_requests"`
	RecordBytes     int64 `json:"record_bytes"`
	RedirectTargets int   `json:"redirect_targets"`

	// A Wayback unit's (Crawl is then wayback:FROM..TO, Listed its sites'
	// hosts, Index* its CDX queries, Record* its replays): its Sites
	// (hosts under one wayback.SiteKey), captures whose
	// body an earlier replay of the same URL and digest gave (Reused),
	// answers read back from the archive folder instead of fetched
	// (Archived), and each month's coverage.
	Sites    int             `json:"sites,omitempty"`
	Reused   int64           `json:"reused,omitempty"`
	Archived int64           `json:"archived,omitempty"`
	Months   []MonthCoverage `json:"months,omitempty"`
}

// MaxFailedHosts caps Coverage.FailedHosts.
const MaxFailedHosts = 100

// fail counts host as failed, and names it among the first MaxFailedHosts.
func (c *Coverage) fail(host string) {
	c.Failed++
	if len(c.FailedHosts) < MaxFailedHosts {
		c.FailedHosts = append(c.FailedHosts, host)
	}
}

// EntryError is an entry SiteList skipped: the Index-th (from 0), and why.
type EntryError struct {
	Index int
	Err   error
}

func (e EntryError) Error() string { return e.Err.Error() }

// SiteList turns a site list's entries (Tranco domains, or hosts, as
// written) into Panel.Hosts: normalised (weburl.NormalizeHost), each once,
// sorted, with "www." + entry added for every entry that is a name not
// already beginning with "www." when www is set. Entries that are not
// host names are returned as skipped, with why, in list order.
func SiteList(entries []string, www bool) (hosts []string, skipped []EntryError) {
	seen := map[string]bool{}
	add := func(h string) {
		if !seen[h] {
			seen[h] = true
			hosts = append(hosts, h)
		}
	}
	for i, e := range entries {
		h, err := weburl.NormalizeHost(e)
		if err != nil {
			skipped = append(skipped, EntryError{i, err})
			continue
		}
		add(h)
		if www && !strings.HasPrefix(h, "www.") && !looksLikeIPHost(h) {
			add("www." + h)
		}
	}
	slices.Sort(hosts)
	return hosts, skipped
}

// looksLikeIPHost reports an IP address, which has no www. variant.
func looksLikeIPHost(h string) bool {
	return strings.Contains(h, ":") || strings.Trim(h, "0123456789.") == ""
}

// validate checks a panel's hosts.
func (p *Panel) validate() error {
	if len(p.Hosts) == 0 {
		return fmt.Errorf("%w: panel: no hosts", ErrConfig)
	}
	for _, h := range p.Hosts {
		if n, err := weburl.NormalizeHost(h); err != nil || n != h {
			return fmt.Errorf("%w: panel: host %q is not normalised (SiteList)", ErrConfig, h)
		}
	}
	return nil
}

// CheckPanelSources checks what a panel is asked to read: Common Crawl
// crawls by name (CC-MAIN-YYYY-WW) and at most one wayback:FROM..TO range
// of months, and says whether the range is among them.
func CheckPanelSources(sources []string) (fromWayback bool, err error) {
	for _, c := range sources {
		if strings.HasPrefix(c, wayback.SourcePrefix) {
			if _, err := wayback.ParseRange(c); err != nil {
				return false, err
			}
			if fromWayback {
				return false, errors.New("more than one wayback:FROM..TO: a panel reads one range of months")
			}
			fromWayback = true
			continue
		}
		if !IsCrawlInput(c) {
			return false, fmt.Errorf("%q is not a Common Crawl crawl name (CC-MAIN-YYYY-WW) nor wayback:YYYY-MM..YYYY-MM: a panel reads crawls by name", c)
		}
	}
	return fromWayback, nil
}

// WaybackPanel returns the panel of hosts read from the Wayback Machine at
// base (a root URL, with or without its final slash), its answers archived
// under out/warc/wayback, its requests naming the client as userAgent.
func WaybackPanel(hosts []string, base, out, userAgent string) *Panel {
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	return &Panel{Hosts: hosts, WaybackBase: base, WaybackArchive: filepath.Join(out, "warc", "wayback"), WaybackUserAgent: userAgent}
}
