//go:build unix

package schema

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// errWouldBlock and errLockUnsupported classify flock's failures: another
// holder, or a file system without flock (ENOLCK: an NFS mount without a
// lock manager; EOPNOTSUPP, ENOSYS: Lustre without -o flock, some FUSE
// file systems).
var (
	errWouldBlock      = errors.New("lock held")
	errLockUnsupported = errors.New("the file system does not support flock")
)

// flock takes f's lock without waiting.
func flock(f *os.File, exclusive bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return errWouldBlock
		case errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EOPNOTSUPP), errors.Is(err, syscall.ENOSYS):
			return fmt.Errorf("%w: %w", errLockUnsupported, err)
		}
		return err
	}
}

// unflock releases f's lock.
func unflock(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
