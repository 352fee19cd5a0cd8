package schema

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// LockFile is the writer lock of a dataset, under its root. It stays
// there (empty while no robotstat writes; the exclusive holder's process id
// and start while one does); the lock itself is a flock(2) on it, which
// the kernel drops when its process ends, kill -9 included, so that a
// killed writer never leaves a stale lock.
const LockFile = "_robotstat/lock"

// ErrLocked is wrapped by Lock when another process holds the lock in a
// mode that excludes the one asked for.
var ErrLocked = errors.New("another robotstat is writing into this output folder")

// DirLock is a held writer lock of a dataset root (Lock). Not safe for
// concurrent use; Unlock once.
type DirLock struct {
	root      string
	f         *os.File
	exclusive bool
	// Unsupported, when not nil, is why the lock could not be taken: the
	// file system has no flock (an NFS mount without a lock manager,
	// Lustre without -o flock). The holder then runs unlocked, as robotstat
	// did before it had a lock, and the caller should say so: that no
	// other robotstat writes into the root is then the user's to make sure.
	Unsupported error
	// Recovered is how many files of killed writers taking the lock
	// removed (see Lock), and RecoveredExamples up to three of them,
	// relative to the root.
	Recovered         int
	RecoveredExamples []string
}

// Notes says, one line each, what the holder should tell its user once it
// holds the lock of dir (the root as the user named it): that the file
// system could not lock (Unsupported), and what the recovery removed of
// killed writers (Recovered). None when there is nothing to say.
func (l *DirLock) Notes(dir string) []string {
	var notes []string
	if l.Unsupported != nil {
		notes = append(notes, fmt.Sprintf("%s is not locked (%v): make sure no other robotstat writes into it meanwhile", dir, l.Unsupported))
	}
	if l.Recovered > 0 {
		ex := strings.Join(l.RecoveredExamples, ", ")
		if l.Recovered > len(l.RecoveredExamples) {
			ex += ", ..."
		}
		notes = append(notes, fmt.Sprintf("removed %d %s a killed robotstat left in %s (%s)", l.Recovered, plural(l.Recovered, "file", "files"), dir, ex))
	}
	return notes
}

// Lock takes the writer lock of the dataset at root (creating root and
// LockFile if needed), exclusive or shared, and refuses at once, wrapping
// ErrLocked and saying who holds it, when another process holds it in a
// mode that excludes this one: robotstat sites and compact and an
// unsharded analyze take it exclusive, the tasks of a sharded analyze
// (which write different inputs into one root on purpose) shared. So two
// analyze runs into one root, or a compaction beside an analyze, never
// trample each other's files.
//
// Taking the lock recovers what killed writers left, so that every
// committed row is in exactly one visible *.parquet file again and no
// temporary file stays (Sweep says what each kind of leftover is): the
// exclusive holder, being alone, removes every hidden temporary file and
// every table file no completion record names (a commit killed between its
// renames and its record: rolled back; or after its record, before its
// previous files were removed: rolled forward), and every file of a run a
// compaction absorbed. A shared holder removes only what writers that
// hold the lock exclusive leave, since no such writer can be alive beside
// it: leftovers in the sites tables' folders (robotstat sites's, but for
// its record's temporary file, hidden and harmless, which would cost a
// listing of every record), and, when an exclusive holder was killed (its
// entry in LockFile is still there), those of a killed compaction. The leftovers of a sharded task's
// own inputs are that task's to remove when it reads them again (analyze
// sweeps its inputs' run ids as it starts them).
//
// Unlock releases the lock; a process that ends releases it too.
func Lock(root string, exclusive bool) (*DirLock, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("schema: output directory %s: %w", root, err)
	}
	_, statErr := os.Stat(abs)
	created := errors.Is(statErr, fs.ErrNotExist)
	dir := filepath.Join(abs, "_robotstat")
	if err := mkdirAll(dir); err != nil {
		return nil, fmt.Errorf("schema: creating %s: %w", dir, err)
	}
	l, err := lockFile(abs, exclusive)
	if err != nil {
		if created { // leave no folder behind for a lock not taken
			_ = os.Remove(dir)
			_ = os.Remove(abs)
		}
		return nil, err
	}
	if err := l.recoverLeftovers(); err != nil {
		l.Unlock()
		return nil, fmt.Errorf("schema: cleaning up after a killed run in %s: %w", abs, err)
	}
	return l, nil
}

// lockFile opens LockFile and flocks it. A lock file that was replaced
// between its opening and its locking (Folders.RemoveEmpty removes an
// empty one with its folder) is opened again.
func lockFile(root string, exclusive bool) (*DirLock, error) {
	p := filepath.Join(root, filepath.FromSlash(LockFile))
	for range 3 {
		f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o666)
		if err != nil {
			return nil, fmt.Errorf("schema: opening the lock %s: %w", p, err)
		}
		l := &DirLock{root: root, f: f, exclusive: exclusive}
		switch err := flock(f, exclusive); {
		case errors.Is(err, errWouldBlock):
			holder := holderOf(f, exclusive)
			f.Close()
			return nil, fmt.Errorf("%w (%s): %s; wait until it is done, or write into another folder", ErrLocked, holder, root)
		case errors.Is(err, errLockUnsupported):
			l.Unsupported = err
		case err != nil:
			f.Close()
			return nil, fmt.Errorf("schema: locking %s: %w", p, err)
		}
		if same, err := sameFile(f, p); err != nil || !same {
			f.Close()
			if err != nil {
				return nil, fmt.Errorf("schema: locking %s: %w", p, err)
			}
			continue
		}
		return l, nil
	}
	return nil, fmt.Errorf("schema: locking %s: the lock file keeps being replaced", p)
}

func sameFile(f *os.File, p string) (bool, error) {
	a, err := f.Stat()
	if err != nil {
		return false, err
	}
	b, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return os.SameFile(a, b), nil
}

// holderOf describes who holds the lock that f could not take.
func holderOf(f *os.File, wantExclusive bool) string {
	if wantExclusive && flock(f, false) == nil {
		// Shared holders only: tasks of a sharded analyze.
		unflock(f)
		return "a sharded robotstat analyze holds it"
	}
	if info := readHolder(f); info != "" {
		return "held by " + info
	}
	return "held by robotstat analyze, sites or compact"
}

// readHolder returns the exclusive holder's entry in the lock file ("" for
// none): "process N since T".
func readHolder(f *os.File) string {
	b := make([]byte, 256)
	n, err := f.ReadAt(b, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return ""
	}
	return strings.TrimSpace(string(b[:n]))
}

// recoverLeftovers removes what killed writers left, as far as this lock
// holder may (see Lock), and then notes an exclusive holder in the lock
// file.
func (l *DirLock) recoverLeftovers() error {
	dirty := readHolder(l.f) != "" // an exclusive holder never unlocked
	var mine func(id string, t TableName) bool
	switch {
	case l.exclusive:
		// Alone (or, without flock, alone as the user promises: sites and
		// compact run once every analyze is done).
		mine = func(string, TableName) bool { return true }
	case l.Unsupported != nil:
		// Shared without a lock: an exclusive writer might be running.
		mine = func(string, TableName) bool { return false }
		dirty = false
	case !dirty:
		// Shared, no exclusive writer killed: the sites tables' leftovers
		// only, which need no index of every record (a shard of a crawl
		// of 70k inputs starts without reading 70k records once more).
		res, err := sweepReduce(l.root)
		l.Recovered, l.RecoveredExamples = res.n, res.examples
		return err
	default:
		// Shared after a killed exclusive writer: what only exclusive
		// holders write.
		reduce := map[TableName]bool{}
		for _, t := range ReduceTables() {
			reduce[t] = true
		}
		mine = func(id string, t TableName) bool {
			return reduce[t] || strings.HasPrefix(id, CompactRunPrefix)
		}
	}
	res, err := sweep(l.root, mine, l.exclusive || dirty, false)
	l.Recovered, l.RecoveredExamples = res.n, res.examples
	if err != nil {
		return err
	}
	if l.exclusive {
		entry := "process " + strconv.Itoa(os.Getpid()) + " since " + time.Now().UTC().Format(time.RFC3339) + "\n"
		if err := l.f.Truncate(0); err != nil {
			return err
		}
		if _, err := l.f.WriteAt([]byte(entry), 0); err != nil {
			return err
		}
	} else if dirty {
		// Recovered: the next shared holder need not look again.
		if err := l.f.Truncate(0); err != nil {
			return err
		}
	}
	return nil
}

// Exclusive reports whether l was taken exclusive.
func (l *DirLock) Exclusive() bool { return l.exclusive }

// Unlock releases the lock (an exclusive holder first clears its entry in
// the lock file: it ended normally). It is safe to call on nil.
func (l *DirLock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	var err error
	if l.exclusive {
		err = l.f.Truncate(0)
	}
	if cerr := l.f.Close(); err == nil { // closing drops the flock
		err = cerr
	}
	l.f = nil
	if err != nil {
		return fmt.Errorf("schema: unlocking %s: %w", l.root, err)
	}
	return nil
}
