package pipeline

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// DefaultCCBase is Common Crawl's public HTTPS endpoint, where a crawl name
// is looked up when Config.CCBase is empty.
const DefaultCCBase = "https://data.commoncrawl.org/"

// IsCrawlName reports whether s has the form of a Common Crawl crawl name,
// CC-MAIN-YYYY-WW (four digits, two digits). Run reads such an input as a
// crawl only when no file or folder of that name exists.
func IsCrawlName(s string) bool {
	if len(s) != len("CC-MAIN-2024-33") || !strings.HasPrefix(s, "CC-MAIN-") || s[12] != '-' {
		return false
	}
	for i, c := range []byte(s[8:]) {
		if i != 4 && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// IsCrawlInput reports whether the input a names a crawl, as Run reads
// it: the form of a crawl name, and no such path on disk.
func IsCrawlInput(a string) bool {
	if !IsCrawlName(a) {
		return false
	}
	_, err := os.Lstat(a)
	return os.IsNotExist(err)
}

// CrawlNameForm says what a Common Crawl crawl name looks like, for the
// messages about a name that is almost one (AlmostCrawlInput).
const CrawlNameForm = "a crawl name is CC-MAIN-YYYY-WW, in capitals: the year's four digits and the week's two, e.g. CC-MAIN-2024-33 (Common Crawl lists its crawls at https://index.commoncrawl.org/collinfo.json)"

// AlmostCrawlInput reports an input meant as a crawl name that is not one
// (CC-MAIN-2024-333, cc-main-2024-33): it begins with CC-MAIN, in any
// case, is no file name (no folder, no extension: Common Crawl's WARCs
// are named CC-MAIN-2024...warc.gz) and names nothing on disk. Run would
// fail to find it; a caller can say what a crawl name is instead.
func AlmostCrawlInput(a string) bool {
	if len(a) < len("CC-MAIN") || !strings.EqualFold(a[:len("CC-MAIN")], "CC-MAIN") || IsCrawlName(a) || strings.ContainsAny(a, "./\\:") {
		return false
	}
	_, err := os.Lstat(a)
	return os.IsNotExist(err)
}

// UnitCrawl returns the crawl a unit's captures are filed under when it is
// not each WARC's own (warcinfo isPartOf), the first of: the crawl it was
// listed by (Unit.Crawl), configured (Config.Crawl), the crawl its name
// names by Common Crawl's layout (CrawlOfPath; byPath reports it); "" for
// none. Run files captures by it, and package runs files a unit's error
// rows by it when the unit has no capture, so that both agree.
func UnitCrawl(listed, configured, name string) (crawl string, byPath bool) {
	switch {
	case listed != "":
		return listed, false
	case configured != "":
		return configured, false
	}
	crawl = CrawlOfPath(name)
	return crawl, crawl != ""
}

// CrawlOfPath returns the crawl a path or URL names by Common Crawl's
// layout, the CC-MAIN-YYYY-WW of its last crawl-data/CC-MAIN-YYYY-WW/
// folder (a mirror's crawl-data/CC-MAIN-2024-33/segments/.../x.warc.gz,
// https://data.commoncrawl.org/crawl-data/CC-MAIN-2024-33/...), else "".
// A capture of a WARC whose path names a crawl is of that crawl, whatever
// its warcinfo isPartOf says (see Config.Crawl).
func CrawlOfPath(p string) string {
	p = filepath.ToSlash(p)
	const dir = "crawl-data/"
	for end := len(p); ; {
		i := strings.LastIndex(p[:end], dir)
		if i < 0 {
			return ""
		}
		rest := p[i+len(dir):]
		if name, _, _ := strings.Cut(rest, "/"); IsCrawlName(name) && (i == 0 || p[i-1] == '/') {
			return name
		}
		end = i
	}
}

// crawlManifest is where a crawl's list of robotstxt WARCs lives under
// base (a URL or a folder), following Common Crawl's layout.
func crawlManifest(base, crawl string) string {
	rel := "crawl-data/" + crawl + "/robotstxt.paths.gz"
	if isURL(base) {
		return strings.TrimSuffix(base, "/") + "/" + rel
	}
	return filepath.Join(base, filepath.FromSlash(rel))
}

// ccBase is the base a crawl name is read from.
func (c *Config) ccBase() string {
	if c.CCBase == "" {
		return DefaultCCBase
	}
	return c.CCBase
}

// segmentOf returns the segment id of a Common Crawl path
// (crawl-data/CC-MAIN-2024-33/segments/1722640353668.0/robotstxt/...),
// "" when the path has none.
func segmentOf(p string) string {
	_, rest, ok := strings.Cut(filepath.ToSlash(p), "/segments/")
	if !ok {
		return ""
	}
	seg, _, _ := strings.Cut(rest, "/")
	return seg
}

// sampleKey is what a listed file is hashed by for sampling: its path from
// crawl-data/ on when it has one, so that a mirror (another base, a local
// folder) samples the same files as the origin.
func sampleKey(p string) string {
	p = filepath.ToSlash(p)
	if i := strings.Index(p, "crawl-data/"); i >= 0 {
		return p[i:]
	}
	return p
}

// selectListed applies Config.Segments and Config.Sample to the files of a
// crawl or manifest, in listed order, and returns those kept, in listed
// order. seen collects the segment ids met, for the check that every
// segment asked for exists.
//
// The sample of n files is chosen so that it is deterministic, spread over
// the segments and stable as n grows (the sample of n is part of the sample
// of n+1, so a larger look reuses what a smaller one committed): the
// segments are ordered by the SHA-256 of their id, the files of each
// segment by the SHA-256 of their path from crawl-data/ on; then one file
// is taken from each segment in that order, then a second from each, and
// so on until n are taken. A sample smaller than the number of segments
// takes one file from each of n segments; a larger one takes ⌊n/S⌋ or
// ⌈n/S⌉ files from each of the S segments (all of a segment's files when
// it has fewer).
func (r *runner) selectListed(files []manifestLine, seen map[string]bool) []manifestLine {
	if len(r.cfg.Segments) > 0 {
		kept := files[:0:0]
		for _, f := range files {
			s := segmentOf(f.name)
			if seen != nil {
				seen[s] = true
			}
			if slices.Contains(r.cfg.Segments, s) {
				kept = append(kept, f)
			}
		}
		files = kept
	}
	n := r.cfg.Sample
	if n <= 0 || n >= len(files) {
		return files
	}
	type member struct {
		at   int
		hash [32]byte
	}
	type segment struct {
		hash  [32]byte
		files []member
	}
	bySeg := map[string]*segment{}
	var segs []*segment
	for i, f := range files {
		id := segmentOf(f.name)
		s := bySeg[id]
		if s == nil {
			s = &segment{hash: sha256.Sum256([]byte(id))}
			bySeg[id] = s
			segs = append(segs, s)
		}
		s.files = append(s.files, member{at: i, hash: sha256.Sum256([]byte(sampleKey(f.name)))})
	}
	cmpHash := func(a, b [32]byte) int { return strings.Compare(string(a[:]), string(b[:])) }
	slices.SortFunc(segs, func(a, b *segment) int { return cmpHash(a.hash, b.hash) })
	for _, s := range segs {
		slices.SortFunc(s.files, func(a, b member) int { return cmpHash(a.hash, b.hash) })
	}
	var at []int
	for round := 0; len(at) < n; round++ {
		for _, s := range segs {
			if round < len(s.files) && len(at) < n {
				at = append(at, s.files[round].at)
			}
		}
	}
	slices.Sort(at)
	out := make([]manifestLine, len(at))
	for i, k := range at {
		out[i] = files[k]
	}
	return out
}

// checkSegments reports the segments of Config.Segments that none of the
// crawls and manifests read lists: a typo would otherwise read nothing.
func (r *runner) checkSegments(seen map[string]bool, listed bool) error {
	if len(r.cfg.Segments) == 0 {
		return nil
	}
	if !listed {
		return fmt.Errorf("%w: segments %s: no crawl or manifest among the inputs", ErrConfig, strings.Join(r.cfg.Segments, ","))
	}
	var missing []string
	for _, s := range r.cfg.Segments {
		if !seen[s] {
			missing = append(missing, s)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: segments %s: in none of the crawls and manifests given", ErrConfig, strings.Join(missing, ","))
	}
	return nil
}
