// Package modroot finds the root folder of the Go module a tool or test
// runs in, by its go.mod, for the few programs that read the repository's
// files (go generate's tester/genwasm, the tests' shared fixtures in
// internal/testkit).
package modroot

import (
	"fmt"
	"os"
	"path/filepath"
)

// Find returns the nearest folder at or above dir that holds a go.mod
// file, or an error wrapping os.ErrNotExist when none does.
func Find(dir string) (string, error) {
	for start := dir; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no go.mod at or above %s: %w", start, os.ErrNotExist)
		}
		dir = up
	}
}

// FromWorkingDir is Find from the working directory.
func FromWorkingDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return Find(dir)
}
