package scan

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// fileWriter appends gzip members to the run's WARC files, starting a new
// file (with its warcinfo record first) when the current one would pass
// limit. Each member is written with one write call and nothing is
// buffered, so a killed run leaves complete records and at most one member
// cut short at the end of the last file. It is used by one goroutine.
type fileWriter struct {
	dir      string
	stamp    string // the run's start, YYYYMMDDhhmmss UTC
	serial   int
	limit    int64
	warcinfo func(name string) []byte // the first member of a file

	f     *os.File
	name  string
	size  int64
	files []string // every file written, in order
	bytes int64
}

func newFileWriter(dir string, start time.Time, limit int64, warcinfo func(string) []byte) *fileWriter {
	return &fileWriter{dir: dir, stamp: start.UTC().Format("20060102150405"), limit: limit, warcinfo: warcinfo}
}

// write appends one member.
func (w *fileWriter) write(member []byte) error {
	if w.f != nil && w.size+int64(len(member)) > w.limit {
		if err := w.close(); err != nil {
			return err
		}
	}
	if w.f == nil {
		if err := w.open(); err != nil {
			return err
		}
	}
	return w.put(member)
}

func (w *fileWriter) put(b []byte) error {
	n, err := w.f.Write(b)
	w.size += int64(n)
	w.bytes += int64(n)
	if err != nil {
		return fmt.Errorf("writing %s: %w", w.name, err)
	}
	return nil
}

// open creates the next file; a name already taken (a run started in the
// same second) moves on to the next serial.
func (w *fileWriter) open() error {
	for {
		w.serial++
		name := "scan-" + w.stamp + "-" + pad5(w.serial) + ".warc.gz"
		path := filepath.Join(w.dir, name)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("creating a WARC file: %w", err)
		}
		w.f, w.name, w.size = f, path, 0
		w.files = append(w.files, path)
		return w.put(w.warcinfo(name))
	}
}

// close syncs and closes the current file.
func (w *fileWriter) close() error {
	if w.f == nil {
		return nil
	}
	f := w.f
	w.f = nil
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("syncing %s: %w", w.name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", w.name, err)
	}
	return nil
}

func pad5(n int) string {
	s := strconv.Itoa(n)
	for len(s) < 5 {
		s = "0" + s
	}
	return s
}
