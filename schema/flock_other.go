//go:build !unix

package schema

import (
	"errors"
	"os"
)

var (
	errWouldBlock      = errors.New("lock held")
	errLockUnsupported = errors.New("flock is not available on this system")
)

// flock is not available: robotstat runs unlocked (DirLock.Unsupported).
func flock(*os.File, bool) error { return errLockUnsupported }

func unflock(*os.File) {}
