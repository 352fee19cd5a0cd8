package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// profiler writes the profiles analyze's and sites' --cpuprofile,
// --memprofile, --mutexprofile and --blockprofile ask for (go tool pprof
// reads them). The heap profile is taken at the end of the run, after a GC,
// with every allocation since the start sampled at the runtime's default
// rate: its alloc_space view shows where a run allocates, inuse_space what
// it holds at the end. The mutex profile records every contended lock
// (fraction 1) and the block profile every blocking event (rate 1): both
// cost little beside parsing, since robotstat's workers seldom wait, and a
// sampled profile would hide the rare long waits that make a section
// serial. scripts/bench reads the CPU and mutex profiles together to say
// which share of the CPU runs where one worker at a time can run.
type profiler struct {
	cpu                           *os.File
	memPath, mutexPath, blockPath string
}

// profilePaths are the files a run's profiles go to; "" for none.
type profilePaths struct {
	cpu, mem, mutex, block string
}

func startProfile(paths profilePaths) (*profiler, error) {
	p := &profiler{memPath: paths.mem, mutexPath: paths.mutex, blockPath: paths.block}
	if paths.cpu != "" {
		f, err := os.Create(paths.cpu)
		if err != nil {
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		p.cpu = f
	}
	if p.mutexPath != "" {
		runtime.SetMutexProfileFraction(1)
	}
	if p.blockPath != "" {
		runtime.SetBlockProfileRate(1)
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
		runtime.GC()
		if err := writeProfile("allocs", p.memPath, "--memprofile"); err != nil {
			return err
		}
		p.memPath = ""
	}
	if p.mutexPath != "" {
		err := writeProfile("mutex", p.mutexPath, "--mutexprofile")
		runtime.SetMutexProfileFraction(0)
		if err != nil {
			return err
		}
		p.mutexPath = ""
	}
	if p.blockPath != "" {
		err := writeProfile("block", p.blockPath, "--blockprofile")
		runtime.SetBlockProfileRate(0)
		if err != nil {
			return err
		}
		p.blockPath = ""
	}
	return nil
}

// writeProfile writes the runtime's profile name to path; flag names the
// flag that asked for it in errors.
func writeProfile(name, path, flag string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("%s: %w", flag, err)
	}
	if err := pprof.Lookup(name).WriteTo(f, 0); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", flag, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", flag, err)
	}
	return nil
}
