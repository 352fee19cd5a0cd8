package runs

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"

	"github.com/robotstat/robotstat/pipeline"
)

// UnitID is the run id of a unit's files and record: the input's base
// name, made safe, then 16 hex digits of a hash of its canonical name
// (CanonicalUnit), so that the same input gets the same id in every run
// and every shard, and two inputs of the same base name do not collide.
func UnitID(canonical string) string {
	base := canonical
	if i := strings.LastIndexAny(base, "/\\"); i >= 0 {
		base = base[i+1:]
	}
	if i := strings.IndexAny(base, "?."); i > 0 {
		base = base[:i] // no query, no extensions: CC-MAIN-...-00000
	}
	var b strings.Builder
	for i := 0; i < len(base) && b.Len() < 80; i++ {
		c := base[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-' || c == '_':
			b.WriteByte(c)
		case b.Len() > 0:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		b.WriteString("input")
	}
	h := sha256.Sum256([]byte(canonical))
	return b.String() + "-" + hex.EncodeToString(h[:8])
}

// CanonicalInput is the name an input given by name is known by across
// runs: a URL as given, "-" as stdin, a path made absolute and clean (so
// ./x and x, or a path given from another folder, are the same input).
func CanonicalInput(name string) string {
	switch {
	case name == "-":
		return "stdin"
	case strings.HasPrefix(name, "http://"), strings.HasPrefix(name, "https://"), strings.HasPrefix(name, "s3://"):
		return name
	}
	if abs, err := filepath.Abs(name); err == nil {
		return abs
	}
	return filepath.Clean(name)
}

// CrawlFilePrefix begins the canonical name of a file of a crawl read by
// name: its path from crawl-data/ on, whatever base it was read from.
const CrawlFilePrefix = "commoncrawl:"

// CanonicalUnit is the name a unit is known by across runs, its record's
// Input: a file of a crawl read by name is the same input from every base
// (Common Crawl over https, its S3 bucket, a mirror), so that reading a
// crawl from one base after a sample of it from another does not file the
// sample's rows twice; any other unit is name(unit.Name), CanonicalInput's
// when name is nil.
func CanonicalUnit(unit pipeline.Unit, name func(string) string) string {
	if unit.Crawl != "" {
		p := filepath.ToSlash(unit.Name)
		if i := strings.Index(p, "crawl-data/"+unit.Crawl+"/"); i >= 0 {
			return CrawlFilePrefix + p[i:]
		}
	}
	if name == nil {
		return CanonicalInput(unit.Name)
	}
	return name(unit.Name)
}
