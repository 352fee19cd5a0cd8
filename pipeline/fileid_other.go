//go:build !unix

package pipeline

import "io/fs"

// fileID: no inode here; fileKey falls back to the resolved path.
func fileID(fs.FileInfo) (string, bool) { return "", false }
