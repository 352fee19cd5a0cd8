package scan

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/klauspost/compress/gzip"
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
		var cut *cutError
		switch {
		case errors.As(err, &cut):
			if err := os.Truncate(name, cut.offset); err != nil {
				return nil, fmt.Errorf("cutting %s back to its last complete record: %w", name, err)
			}
			if cut.offset == 0 { // nothing complete, not even the warcinfo
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

// cutError reports a file whose gzip members end in one cut short, at
// offset.
type cutError struct{ offset int64 }

func (e *cutError) Error() string {
	return fmt.Sprintf("incomplete gzip member at offset %d", e.offset)
}

// readFile calls fn with each record of a scan file (one gzip member per
// record) and the first 64 KiB of its block, until fn returns false. A last
// member cut short returns a *cutError; a broken member elsewhere is an
// error: the file is not one this package wrote whole.
func readFile(name string, fn func(h *warc.Header, block []byte) bool) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	cr := &countReader{r: f}
	br := bufio.NewReaderSize(cr, 64<<10)
	var zr gzip.Reader
	wr := warc.NewReader(nil)
	var block []byte
	for {
		at := cr.n - int64(br.Buffered())
		if _, err := br.Peek(1); err == io.EOF {
			return nil
		}
		if err := zr.Reset(br); err != nil {
			return memberErr(name, at, err)
		}
		zr.Multistream(false)
		wr.Reset(&zr)
		ok := wr.Next()
		if ok {
			block, _, err = wr.ReadBlock(block[:0], 64<<10)
			if err != nil {
				return memberErr(name, at, err)
			}
		}
		if wr.Err() != nil {
			return memberErr(name, at, wr.Err())
		}
		// Read the member to its end: the CRC check is what says it is
		// complete.
		if _, err := io.Copy(io.Discard, &zr); err != nil {
			return memberErr(name, at, err)
		}
		if !ok || wr.Truncated() {
			return memberErr(name, at, errors.New("not one whole WARC record"))
		}
		if !fn(wr.Header(), block) {
			return nil
		}
	}
}

// memberErr classifies a bad member at offset at: the end of the file
// (cut short: a killed run) or not.
func memberErr(name string, at int64, err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return &cutError{offset: at}
	}
	return fmt.Errorf("%s: offset %d: %w", name, at, err)
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
