package schema

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// mkdirAll is os.MkdirAll that says what is in the way when a path element
// exists but is no folder: mkdir's "file exists" does not tell a regular
// file from a symbolic link whose target does not exist (issue 26.7: a
// dangling link as --out).
func mkdirAll(dir string) error {
	err := os.MkdirAll(dir, 0o777)
	if err == nil || !errors.Is(err, fs.ErrExist) && !errors.Is(err, syscall.ENOTDIR) {
		return err
	}
	for p := dir; ; p = filepath.Dir(p) {
		if fi, lerr := os.Lstat(p); lerr == nil {
			switch {
			case fi.Mode()&fs.ModeSymlink != 0:
				if _, serr := os.Stat(p); serr != nil {
					target, _ := os.Readlink(p)
					return fmt.Errorf("%s is a symbolic link to %s, which does not exist: create that folder, or give another path: %w", p, target, err)
				}
			case !fi.IsDir():
				return fmt.Errorf("%s is a file, not a folder: %w", p, err)
			}
			return err
		}
		if filepath.Dir(p) == p {
			return err
		}
	}
}
