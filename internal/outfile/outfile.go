// Package outfile writes the files a user names on the command line
// (robotstat report --html FILE and --csv DIR's files, robotstat tester
// --out FILE) the way cp, curl -o and sort -o treat their destination,
// except that a regular file is replaced atomically, and never replaces
// what is not a regular file:
//
//   - nothing there, or a regular file: the content is written to a hidden
//     temporary file in the same folder (.NAME.<random>.tmp), fsynced,
//     closed and renamed over NAME, so a reader sees the old file or the
//     whole new one, never part of it. A new file gets mode 0666 minus the
//     umask, as cp and a shell's > give it; a replaced one keeps its
//     permission bits (it is a new file: another hard link to the old one
//     keeps the old content, as after sed -i or rsync). A regular file the
//     user may not write (chmod a-w) is refused, as cp refuses it, although
//     the folder would let it be renamed over.
//   - a character device or a FIFO (/dev/null, /dev/stdout on a terminal
//     or a pipe, a named pipe made with mkfifo): written through, opened
//     for writing without O_CREATE or O_TRUNC, as cp and a shell's >
//     write to it; the node itself is never replaced. Such a write cannot
//     be atomic: a failure leaves what was written so far.
//   - a symbolic link: followed, as cp, curl -o and sort -o follow it, and
//     the rules above apply to what it points to (a link to a regular file
//     has its target replaced atomically and stays a link; a link to
//     /proc/self/fd/1 writes through to whatever standard output is). A
//     dangling link is refused ([ErrDangling]), as GNU cp refuses to write
//     through one, rather than create a file wherever it points.
//   - a folder ([ErrDirectory]), a block device, a socket or anything
//     else ([ErrNotFile]), and the name "-" ([ErrDash]: robotstat's commands
//     print their own output on standard output; /dev/stdout writes the
//     file there too) are refused, and nothing is written.
//
// The functions are safe for concurrent use on different paths.
package outfile

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Errors Write returns for paths it refuses, before it writes anything.
var (
	ErrDash      = errors.New(`"-" is not a file here (standard output carries the command's own output): give a file name, or /dev/stdout to write there too`)
	ErrDirectory = errors.New("is a folder")
	ErrDangling  = errors.New("is a symbolic link to nothing (not written through, as cp does not)")
	ErrNotFile   = errors.New("is neither a regular file nor a character device or FIFO (a block device, a socket, ...): not written")
)

// Write writes what write produces to path, as the package documentation
// says: a regular file (or none) atomically, a character device or FIFO
// through, anything else refused. write gets a buffered writer; an error
// it returns leaves a regular path as it was (its temporary file is
// removed). The error names path and wraps the cause.
func Write(path string, write func(io.Writer) error) error {
	if path == "-" {
		return ErrDash
	}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return replace(path, nil, write)
	case err != nil:
		return fmt.Errorf("writing %s: %w", path, err)
	case fi.Mode().IsRegular():
		return replace(path, fi, write)
	case fi.Mode()&fs.ModeSymlink != 0:
		st, err := os.Stat(path) // follows the link, /proc's magic links too
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s %w", path, ErrDangling)
		}
		if err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		if !st.Mode().IsRegular() {
			return special(path, st, write)
		}
		// Replace the target, beside it, so that the link stays a link.
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			return fmt.Errorf("writing %s: resolving the link: %w", path, err)
		}
		if ti, err := os.Lstat(target); err != nil || !ti.Mode().IsRegular() {
			return fmt.Errorf("writing %s: the link resolves to %s, which is not a regular file now", path, target)
		}
		return replace(target, st, write)
	}
	return special(path, fi, write)
}

// Check reports, before anything is computed, whether Write would refuse
// path or fail to put its file there: what Write refuses (a folder, "-",
// a dangling link, a block device or socket), a folder that is not there
// or cannot be written in, a regular file that cannot be written. It
// writes nothing but an empty temporary file beside path, removed at once;
// a FIFO or character device is not opened (a FIFO would wait for its
// reader). Write may still fail later (a full disk).
func Check(path string) error {
	if path == "-" {
		return ErrDash
	}
	st, err := os.Stat(path) // follows a link, as Write does
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s %w", path, ErrDangling)
		}
		return probe(path, path)
	case err != nil:
		return fmt.Errorf("writing %s: %w", path, err)
	case st.IsDir():
		return fmt.Errorf("%s %w", path, ErrDirectory)
	case st.Mode().IsRegular():
		f, err := os.OpenFile(path, os.O_WRONLY, 0) // no O_TRUNC: nothing changes
		if err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		f.Close()
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			return fmt.Errorf("writing %s: resolving the link: %w", path, err)
		}
		return probe(target, path) // replaced by a rename beside it
	case st.Mode()&fs.ModeNamedPipe != 0, st.Mode()&fs.ModeCharDevice != 0:
		return nil
	}
	return fmt.Errorf("%s %w", path, ErrNotFile)
}

// probe creates and removes a temporary file beside target, as replace
// would; path names the destination in the error.
func probe(target, path string) error {
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// special writes through to a character device or FIFO and refuses
// anything else that is not a regular file.
func special(path string, fi fs.FileInfo, write func(io.Writer) error) error {
	m := fi.Mode()
	switch {
	case m.IsDir():
		return fmt.Errorf("%s %w", path, ErrDirectory)
	case m&fs.ModeNamedPipe != 0, m&fs.ModeDevice != 0 && m&fs.ModeCharDevice != 0:
	default:
		return fmt.Errorf("%s %w", path, ErrNotFile)
	}
	// Opening a FIFO for writing waits for a reader, as cp and > do.
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	bw := bufio.NewWriter(f)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// replace writes path's new content under a temporary name beside it and
// renames it into place. old is what is there now (nil: nothing).
func replace(path string, old fs.FileInfo, write func(io.Writer) error) error {
	if old != nil {
		// cp refuses a file it may not write; a rename would not notice.
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		f.Close()
	}
	var r [8]byte
	if _, err := rand.Read(r[:]); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	dir, base := filepath.Split(path)
	tmp := filepath.Join(dir, "."+base+"."+hex.EncodeToString(r[:])+".tmp")
	// 0666 minus the umask, as os.Create; O_EXCL: never into a file that
	// someone else holds.
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp) // the temporary file is ours; its removal cannot fail in a way that matters more
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if old != nil {
		if err := f.Chmod(old.Mode().Perm()); err != nil {
			return fail(err)
		}
	}
	bw := bufio.NewWriter(f)
	if err := write(bw); err != nil {
		return fail(err)
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	// The rename is durable once the folder is synced. A folder one may
	// write but not read (a drop box, mode 0733) cannot be opened to be
	// synced: the rename is done, only its durability over a crash is
	// the file system's.
	if d, err := os.Open(filepath.Join(dir, ".")); err == nil {
		err = d.Sync()
		d.Close()
		if err != nil {
			return fmt.Errorf("writing %s: syncing its folder: %w", path, err)
		}
	}
	return nil
}
