package scan

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/robotstat/robotstat/warc"
)

// prior is what earlier runs left in Dir.
type prior struct {
	done     map[string]struct{} // hosts with an end record
	repaired []string
}

// Files returns the scan WARC files in dir, in name order (which is the
// order they were written in).
func Files(dir string) ([]string, error) {
	m, err := filepath.Glob(filepath.Join(dir, "scan-*.warc.gz"))
	if err != nil {
		return nil, err
	}
	slices.Sort(m)
	return m, nil
}

// ResumeCrawl returns the crawl name of a scan into dir: the isPartOf
// of the first scan WARC file in dir (ReadCrawl), so that a resumed scan
// keeps the name it started with, else scan-YYYY-MM-DD of now in UTC.
func ResumeCrawl(dir string, now time.Time) (string, error) {
	crawl, err := ReadCrawl(dir)
	if err != nil || crawl != "" {
		return crawl, err
	}
	return "scan-" + now.UTC().Format("2006-01-02"), nil
}

// ReadCrawl returns the isPartOf of the first scan WARC file in dir, or ""
// when there is none: a resumed scan keeps the crawl name it started with.
func ReadCrawl(dir string) (string, error) {
	files, err := Files(dir)
	if err != nil || len(files) == 0 {
		return "", err
	}
	var crawl string
	err = readFile(files[0], func(h *warc.Header, block []byte) bool {
		if string(h.Type()) == typeWarcinfo {
			crawl = string(warc.FieldValue(block, "isPartOf"))
		}
		return false
	})
	return crawl, err
}

// readPrior reads every scan file in dir for the hosts already done, and
// cuts a file whose last gzip member is incomplete (a killed run) back to
// its last complete member.
func readPrior(dir string) (*prior, error) {
	p := &prior{done: map[string]struct{}{}}
	files, err := Files(dir)
	if err != nil {
		return nil, err
	}
	for _, name := range files {
		err := readFile(name, func(h *warc.Header, block []byte) bool {
			if string(h.Type()) == typeMetadata {
				if host := warc.FieldValue(block, "host"); len(host) > 0 && len(warc.FieldValue(block, "outcome")) > 0 {
					p.done[string(host)] = struct{}{}
				}
			}
			return true
		})
		var cut *warc.CutError
		switch {
		case errors.As(err, &cut):
			if err := os.Truncate(name, cut.Offset); err != nil {
				return nil, fmt.Errorf("cutting %s back to its last complete record: %w", name, err)
			}
			if cut.Offset == 0 { // nothing complete, not even the warcinfo
				if err := os.Remove(name); err != nil {
					return nil, err
				}
			}
			p.repaired = append(p.repaired, name)
		case err != nil:
			return nil, err
		}
	}
	return p, nil
}

// readFile calls fn with each record of a scan file (one gzip member per
// record, as scan writes them) and the first 64 KiB of its block, until fn
// returns false. A last member cut short returns a *warc.CutError; a broken
// member elsewhere is an error naming the file and the member's offset:
// the file is not one this package wrote whole.
func readFile(name string, fn func(h *warc.Header, block []byte) bool) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	m := warc.NewMemberReader(f, 64<<10)
	for m.Next() {
		if !fn(m.Header(), m.Block()) {
			return nil
		}
	}
	var cut *warc.CutError
	if err := m.Err(); err != nil && !errors.As(err, &cut) {
		return fmt.Errorf("%s: %w", name, err)
	}
	return m.Err()
}
