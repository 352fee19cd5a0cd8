package schema

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Folders remembers which folders of a dataset existed before a run, so
// that a run that fails, is stopped by --strict or is interrupted can
// remove the empty folders it created (a table's folder, a crawl's
// partition, --out itself) and nothing else: a folder that existed before,
// or that holds anything, is never removed, and nothing outside the root is
// looked at. It knows the layout: folders lie at most two levels below
// the root (table/crawl=NAME, _robotstat/inputs), so the partitions' files
// are never listed.
//
// Two processes writing one root (shards of a cluster job) must not use
// it: one could remove a folder the other has just created for a file.
// Not safe for concurrent use.
type Folders struct {
	root        string
	rootExisted bool
	before      map[string]bool
}

// folderDepth bounds the levels below the root that hold folders.
const folderDepth = 2

// NoteFolders records the folders under root as they are now.
func NoteFolders(root string) (*Folders, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	f := &Folders{root: abs, before: map[string]bool{}}
	if st, err := os.Stat(abs); err == nil && st.IsDir() {
		f.rootExisted = true
		dirs, err := f.list()
		if err != nil {
			return nil, err
		}
		for _, d := range dirs {
			f.before[d] = true
		}
	}
	return f, nil
}

// list returns the folders below the root, down to folderDepth.
func (f *Folders) list() ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(f.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if !d.IsDir() || p == f.root {
			return nil
		}
		dirs = append(dirs, p)
		if rel, _ := filepath.Rel(f.root, p); strings.Count(rel, string(filepath.Separator)) >= folderDepth-1 {
			return filepath.SkipDir
		}
		return nil
	})
	return dirs, err
}

// RemoveEmpty removes the folders created since NoteFolders that are empty,
// deepest first, and the root if it did not exist and is empty now. A
// folder that holds anything stays.
func (f *Folders) RemoveEmpty() error {
	if !f.rootExisted {
		if _, err := os.Stat(f.root); err != nil {
			return nil // never created
		}
	}
	dirs, err := f.list()
	if err != nil {
		return err
	}
	sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
	var first error
	keep := func(err error) {
		if first == nil && err != nil {
			first = err
		}
	}
	lockDir := filepath.Dir(filepath.Join(f.root, filepath.FromSlash(LockFile)))
	for _, d := range dirs {
		if f.before[d] {
			continue
		}
		if d == lockDir {
			// The run's own lock file, which Lock created with the folder
			// (Folders is used by runs that hold the lock exclusive), does
			// not keep the folder.
			keep(removeLockIfAlone(d))
		}
		keep(removeIfEmpty(d))
	}
	if !f.rootExisted {
		keep(removeIfEmpty(f.root))
	}
	return first
}

// removeIfEmpty removes dir when it holds nothing.
func removeIfEmpty(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	names, err := d.Readdirnames(1)
	d.Close()
	if len(names) > 0 {
		return nil
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return os.Remove(dir)
}

// removeLockIfAlone removes dir's lock file when it is the only entry.
func removeLockIfAlone(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	names, err := d.Readdirnames(2)
	d.Close()
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	if len(names) != 1 || names[0] != filepath.Base(LockFile) {
		return nil
	}
	if err := os.Remove(filepath.Join(dir, names[0])); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
