package pipeline

import (
	"io"
	"strconv"

	"github.com/robotstat/robotstat/internal/ranklist"
)

// SiteListFile is a panel's site list as ReadSiteList reads it: a plain
// value.
type SiteListFile struct {
	// Entries counts the list's entries, host names or not.
	Entries int
	// Hosts are SiteList's hosts (Panel.Hosts).
	Hosts []string
	// Skipped names the entries that are not host names, "line N: why",
	// in list order.
	Skipped []string
	// Ranked: every entry had a rank, so the list is a Tranco list whose
	// ranks can fill captures.rank and sites.rank.
	Ranked bool
}

// ReadSiteList reads a panel's site list, Tranco's rank,domain lines or
// one host a line (ranklist.EachEntry), and makes its hosts with SiteList
// (www: also "www." + each name). It fails only on a line that is neither
// (a *ranklist.FormatError) or on a read error; an entry that is not a
// host name is skipped and named in Skipped.
func ReadSiteList(r io.Reader, www bool) (*SiteListFile, error) {
	var entries []string
	var lines []int
	ranked := true
	err := ranklist.EachEntry(r, func(line int, rank int64, dom string) bool {
		entries, lines = append(entries, dom), append(lines, line)
		ranked = ranked && rank > 0
		return true
	})
	if err != nil {
		return nil, err
	}
	l := &SiteListFile{Entries: len(entries), Ranked: ranked && len(entries) > 0}
	var skipped []EntryError
	l.Hosts, skipped = SiteList(entries, www)
	for _, e := range skipped {
		l.Skipped = append(l.Skipped, "line "+strconv.Itoa(lines[e.Index])+": "+e.Error())
	}
	return l, nil
}
