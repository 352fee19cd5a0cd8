package schema

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// atomicFile is a file written under a hidden temporary name in its final
// directory and renamed into place only once complete, after the manner of
// litestream: write, fsync, close, rename, fsync the directory. Readers
// globbing *.parquet never see the temporary name, and a crash leaves at
// worst a hidden temporary file, never a truncated final one.
//
// An atomicFile is used by one goroutine at a time.
type atomicFile struct {
	final string   // path after commit
	tmp   string   // hidden temporary path
	f     *os.File // nil once closed
	n     int64    // bytes written so far
	w     io.Writer

	// What the completion record says of a table's file.
	table TableName
	crawl string
	rows  int64 // set when the Parquet footer is written
}

// tempName returns the hidden temporary name of final:
// .<base>.<random>.tmp in the same directory. The random part lets two
// processes writing the same run id not trample each other's bytes.
func tempName(final string) (string, error) {
	var r [8]byte
	if _, err := rand.Read(r[:]); err != nil {
		return "", err
	}
	dir, base := filepath.Split(final)
	return filepath.Join(dir, "."+base+"."+hex.EncodeToString(r[:])+".tmp"), nil
}

// createAtomic opens the temporary file of final. wrap, when not nil, wraps
// the file's writer (tests inject failures with it).
func createAtomic(final string, wrap func(io.Writer) io.Writer) (*atomicFile, error) {
	tmp, err := tempName(final)
	if err != nil {
		return nil, fmt.Errorf("schema: temporary name for %s: %w", final, err)
	}
	// O_EXCL: never write into a file someone else holds; 0666 minus the
	// umask, as os.Create does, so results are as readable as any output.
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return nil, fmt.Errorf("schema: creating %s: %w", final, err)
	}
	a := &atomicFile{final: final, tmp: tmp, f: f}
	a.w = io.Writer(f)
	if wrap != nil {
		a.w = wrap(f)
	}
	return a, nil
}

// Write writes p to the temporary file. Its errors reach the caller through
// the Parquet writer, which adds what it was writing; the TableWriter adds
// the final file's name.
func (a *atomicFile) Write(p []byte) (int, error) {
	n, err := a.w.Write(p)
	a.n += int64(n)
	return n, err
}

// sync flushes the temporary file to stable storage and closes it.
func (a *atomicFile) sync() error {
	if err := a.f.Sync(); err != nil {
		return fmt.Errorf("schema: syncing %s: %w", a.final, err)
	}
	err := a.f.Close()
	a.f = nil
	if err != nil {
		return fmt.Errorf("schema: closing %s: %w", a.final, err)
	}
	return nil
}

// rename moves the synced temporary file to its final name, replacing any
// file of that name. The directory still has to be synced for the rename to
// be durable (syncDir).
func (a *atomicFile) rename() error {
	if err := os.Rename(a.tmp, a.final); err != nil {
		return fmt.Errorf("schema: renaming %s into place: %w", a.final, err)
	}
	a.tmp = ""
	return nil
}

// remove closes and deletes the temporary file if it still exists. It is
// safe to call at any point and more than once.
func (a *atomicFile) remove() error {
	var errs []error
	if a.f != nil {
		_ = a.f.Close() // the file is being thrown away: its close error says nothing
		a.f = nil
	}
	if a.tmp != "" {
		if err := os.Remove(a.tmp); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("schema: removing temporary file of %s: %w", a.final, err))
		}
		a.tmp = ""
	}
	return errors.Join(errs...)
}

// syncDir fsyncs a directory so that renames and creations in it survive a
// crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("schema: syncing directory %s: %w", dir, err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("schema: syncing directory %s: %w", dir, err)
	}
	return nil
}
