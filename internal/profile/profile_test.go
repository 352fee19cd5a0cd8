package profile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestStartStop: every profile asked for is written once, as a gzipped
// pprof file; a second Stop writes nothing again; the samplers are off
// after Stop. Not parallel: the profiles are the process's.
func TestStartStop(t *testing.T) {
	dir := t.TempDir()
	paths := Paths{
		CPU: filepath.Join(dir, "cpu"), Mem: filepath.Join(dir, "mem"),
		Mutex: filepath.Join(dir, "mutex"), Block: filepath.Join(dir, "block"),
	}
	p, err := Start(paths)
	if err != nil {
		t.Fatal(err)
	}
	// Some work, contention and waiting to record.
	var mu sync.Mutex
	var wg sync.WaitGroup
	sink := 0
	for range 4 {
		wg.Go(func() {
			for i := range 10000 {
				mu.Lock()
				sink += len(strings.Repeat("x", i%64))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{paths.CPU, paths.Mem, paths.Mutex, paths.Block} {
		b, err := os.ReadFile(f)
		if err != nil || !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
			t.Errorf("%s: %d bytes, %v; want a gzipped profile", f, len(b), err)
		}
		os.Remove(f)
	}
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{paths.CPU, paths.Mem, paths.Mutex, paths.Block} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("a second Stop wrote %s again", f)
		}
	}
}

// TestErrorsNameTheFlag: a profile that cannot be written fails naming
// the flag that asked for it.
func TestErrorsNameTheFlag(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no", "such", "folder")
	if _, err := Start(Paths{CPU: missing}); err == nil || !strings.HasPrefix(err.Error(), "--cpuprofile: ") {
		t.Errorf("CPU: %v", err)
	}
	p, err := Start(Paths{Mutex: missing})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Stop(); err == nil || !strings.HasPrefix(err.Error(), "--mutexprofile: ") {
		t.Errorf("mutex: %v", err)
	}
}
