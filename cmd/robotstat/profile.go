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
	cpu   *os.File
	paths profilePaths // cleared as each profile is written
}

// profilePaths are the files a run's profiles go to; "" for none.
type profilePaths struct {
	cpu, mem, mutex, block string
}

func startProfile(paths profilePaths) (*profiler, error) {
	p := &profiler{paths: paths}
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
	if paths.mutex != "" {
		runtime.SetMutexProfileFraction(1)
	}
	if paths.block != "" {
		runtime.SetBlockProfileRate(1)
	}
	return p, nil
}

// stop ends the CPU profile and writes the others, each once.
func (p *profiler) stop() error {
	if p.cpu != nil {
		pprof.StopCPUProfile()
		if err := p.cpu.Close(); err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		p.cpu = nil
	}
	if p.paths.mem != "" {
		runtime.GC()
	}
	for _, w := range []struct {
		path        *string
		name, flag  string
		stopSampler func()
	}{
		{&p.paths.mem, "allocs", "--memprofile", func() {}},
		{&p.paths.mutex, "mutex", "--mutexprofile", func() { runtime.SetMutexProfileFraction(0) }},
		{&p.paths.block, "block", "--blockprofile", func() { runtime.SetBlockProfileRate(0) }},
	} {
		if *w.path == "" {
			continue
		}
		err := writeProfile(w.name, *w.path, w.flag)
		w.stopSampler()
		if err != nil {
			return err
		}
		*w.path = ""
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
