//go:build unix

package pipeline

import (
	"io/fs"
	"strconv"
	"syscall"
)

// fileID returns a file's device and inode as a key.
func fileID(st fs.FileInfo) (string, bool) {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return "inode:" + strconv.FormatUint(uint64(sys.Dev), 10) + ":" + strconv.FormatUint(uint64(sys.Ino), 10), true
}
