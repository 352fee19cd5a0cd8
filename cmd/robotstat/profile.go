package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// profiler writes the CPU and heap profiles analyze's --cpuprofile and
// --memprofile ask for (go tool pprof reads them). The heap profile is taken
// at the end of the run, after a GC, with every allocation since the start
// sampled at the runtime's default rate: its alloc_space view shows where a
// run allocates, inuse_space what it holds at the end.
type profiler struct {
	cpu     *os.File
	memPath string
}

func startProfile(cpuPath, memPath string) (*profiler, error) {
	p := &profiler{memPath: memPath}
	if cpuPath != "" {
		f, err := os.Create(cpuPath)
		if err != nil {
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		p.cpu = f
	}
	return p, nil
}

// stop ends the CPU profile and writes the heap profile.
func (p *profiler) stop() error {
	if p.cpu != nil {
		pprof.StopCPUProfile()
		if err := p.cpu.Close(); err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		p.cpu = nil
	}
	if p.memPath != "" {
		f, err := os.Create(p.memPath)
		if err != nil {
			return fmt.Errorf("--memprofile: %w", err)
		}
		runtime.GC()
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			f.Close()
			return fmt.Errorf("--memprofile: %w", err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("--memprofile: %w", err)
		}
		p.memPath = ""
	}
	return nil
}
