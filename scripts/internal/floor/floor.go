// Package floor measures the decompression floor of robotstat's benchmarks:
// plain gzip inflation of the input files into io.Discard on one core,
// which nothing that reads a .warc.gz can beat. scripts/benchpipeline and
// scripts/benchanalyze (behind scripts/bench) compare against the same
// figure.
package floor

import (
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/klauspost/compress/gzip"
)

// Measure inflates every file in turn with klauspost/compress/gzip (the
// inflater the pipeline uses) and returns the wall time and this process's
// CPU time (user+sys) it took.
func Measure(files []string) (wall, cpu time.Duration, err error) {
	c0, t0 := CPUTime(), time.Now()
	for _, f := range files {
		if err := inflate(f); err != nil {
			return 0, 0, err
		}
	}
	return time.Since(t0), CPUTime() - c0, nil
}

func inflate(name string) error {
	fh, err := os.Open(name)
	if err != nil {
		return err
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if _, err := io.Copy(io.Discard, zr); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// CPUTime returns the user+sys time this process has used so far.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Size returns the total size in bytes of files.
func Size(files []string) (int64, error) {
	var n int64
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			return 0, err
		}
		n += st.Size()
	}
	return n, nil
}
