package schema

import (
	"fmt"
	"path/filepath"
	"strings"
)

// DefaultPartition is the crawl partition directory value of rows whose
// crawl is unknown (empty). Hive, Spark, Arrow and DuckDB read it back as
// NULL, which is what the crawl column inside the files holds.
const DefaultPartition = "__HIVE_DEFAULT_PARTITION__"

// maxNameBytes keeps a path element under the 255 bytes most file systems
// allow, with room for the temporary name's prefix and suffix.
const maxNameBytes = 200

// partitionDir returns the directory element of a crawl partition:
// "crawl=" and the crawl percent-encoded. Every byte outside A-Z a-z 0-9 -
// _ . is escaped as %XX, and so is a leading dot (so "." and ".." become
// %2E and %2E.) and the leading underscore of a crawl literally named
// __HIVE_DEFAULT_PARTITION__. Readers that decode Hive partition values
// (DuckDB, Arrow, Spark) therefore get the crawl back byte for byte, and no
// crawl can name a path outside the table's folder.
func partitionDir(crawl string) (string, error) {
	if crawl == "" {
		return "crawl=" + DefaultPartition, nil
	}
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len("crawl=")+len(crawl)+8)
	b = append(b, "crawl="...)
	for i := 0; i < len(crawl); i++ {
		c := crawl[i]
		safe := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.'
		if i == 0 && (c == '.' || crawl == DefaultPartition) {
			safe = false
		}
		if safe {
			b = append(b, c)
		} else {
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	if len(b) > maxNameBytes {
		return "", fmt.Errorf("%w: crawl name %.40q... is %d bytes escaped, more than %d", ErrUnsafeName, crawl, len(b), maxNameBytes)
	}
	return string(b), nil
}

// validRunID reports whether id may be part of a file name: 1 to 128 ASCII
// letters, digits, '-' and '_', starting with a letter or digit. Run ids
// are produced by the caller (a hash of the inputs and shard), so anything
// else is a bug to reject rather than a name to repair.
func validRunID(id string) error {
	if id == "" || len(id) > 128 {
		return fmt.Errorf("%w: run id %q must be 1 to 128 bytes", ErrUnsafeName, id)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		ok := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || (i > 0 && (c == '-' || c == '_'))
		if !ok {
			return fmt.Errorf("%w: run id %q may hold only letters, digits, - and _ and must start with a letter or digit", ErrUnsafeName, id)
		}
	}
	return nil
}

// within reports whether path lies inside root (both cleaned, absolute). It
// is a second line of defence behind partitionDir and validRunID.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
