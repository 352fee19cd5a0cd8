package stats

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/robotstat/robotstat/internal/ranklist"
)

// RankTable maps sites to their rank in a ranked list such as Tranco's
// (robotstat analyze --sites FILE), so that captures can be cut into
// top-1k/10k/100k strata. It is immutable once loaded and safe for
// concurrent use.
type RankTable struct {
	ranks map[string]int64
}

// ReadRanks reads a ranked list in Tranco's format: one "rank,domain" line
// per site (a header line, blank lines and "#" comments are skipped; a
// leading UTF-8 BOM is ignored). Domains are lower-cased and stripped of a
// trailing dot. When a domain is listed twice the better (smaller) rank
// wins.
func ReadRanks(r io.Reader) (*RankTable, error) {
	t := &RankTable{ranks: make(map[string]int64, 1<<16)}
	var bad error
	err := ranklist.Each(r, func(line int, n int64, dom string) bool {
		dom = strings.TrimSuffix(strings.ToLower(dom), ".")
		if dom == "" {
			bad = fmt.Errorf("%w: line %d: empty domain", ErrRankFormat, line)
			return false
		}
		if old, ok := t.ranks[dom]; !ok || n < old {
			t.ranks[dom] = n
		}
		return true
	})
	var fe *ranklist.FormatError
	switch {
	case errors.As(err, &fe) && fe.Rank:
		return nil, fmt.Errorf("%w: line %d: rank %q", ErrRankFormat, fe.Line, fe.Text)
	case errors.As(err, &fe):
		return nil, fmt.Errorf("%w: line %d: %q", ErrRankFormat, fe.Line, fe.Text)
	case err != nil:
		return nil, fmt.Errorf("stats: reading ranked list: %w", err)
	case bad != nil:
		return nil, bad
	}
	return t, nil
}

// Len returns the number of ranked domains.
func (t *RankTable) Len() int { return len(t.ranks) }

// Rank returns the rank of a site: host's own rank if the list names the
// host, else its registered domain's, else 0 and false. Tranco lists
// registered domains, so "www.example.com" gets example.com's rank; a list
// of hosts (as Common Crawl's combined list) matches hosts first.
func (t *RankTable) Rank(host, registeredDomain string) (int64, bool) {
	if t == nil {
		return 0, false
	}
	if n, ok := t.ranks[host]; ok {
		return n, true
	}
	if registeredDomain != "" && registeredDomain != host {
		if n, ok := t.ranks[registeredDomain]; ok {
			return n, true
		}
	}
	return 0, false
}
