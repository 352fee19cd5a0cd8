package stats

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
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
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if line == 1 {
			s = strings.TrimPrefix(s, "\uFEFF")
		}
		if s == "" || s[0] == '#' {
			continue
		}
		rs, dom, ok := strings.Cut(s, ",")
		if !ok {
			return nil, fmt.Errorf("%w: line %d: %q", ErrRankFormat, line, capString(s, 80))
		}
		n, err := strconv.ParseInt(strings.TrimSpace(rs), 10, 64)
		if err != nil || n < 1 {
			if line == 1 {
				continue // a header such as "rank,domain"
			}
			return nil, fmt.Errorf("%w: line %d: rank %q", ErrRankFormat, line, capString(rs, 40))
		}
		dom = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(dom)), ".")
		if dom == "" {
			return nil, fmt.Errorf("%w: line %d: empty domain", ErrRankFormat, line)
		}
		if old, ok := t.ranks[dom]; !ok || n < old {
			t.ranks[dom] = n
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("stats: reading ranked list: %w", err)
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

func capString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
