// Package profile writes the profiles robotstat's --cpuprofile,
// --memprofile, --mutexprofile and --blockprofile ask for, around a run of
// analyze or sites (go tool pprof reads them; scripts/bench reads the CPU
// and mutex profiles together). Errors name the flag that asked for the
// profile.
package profile

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// Profiler writes a run's profiles. The heap profile is taken at the end of the run, after a GC,
// with every allocation since the start sampled at the runtime's default
// rate: its alloc_space view shows where a run allocates, inuse_space what
// it holds at the end. The mutex profile records every contended lock
// (fraction 1) and the block profile every blocking event (rate 1): both
// cost little beside parsing, since robotstat's workers seldom wait, and a
// sampled profile would hide the rare long waits that make a section
// serial. scripts/bench reads the CPU and mutex profiles together to say
// which share of the CPU runs where one worker at a time can run.
//
// The profiles are the process's: one Profiler at a time.
type Profiler struct {
	cpu   *os.File
	paths Paths // cleared as each profile is written
}

// Paths are the files a run's profiles go to; "" for none.
type Paths struct {
	CPU, Mem, Mutex, Block string
}

// Start starts the CPU profile and the mutex and block samplers that paths
// ask for; Stop ends them and writes the profiles.
func Start(paths Paths) (*Profiler, error) {
	p := &Profiler{paths: paths}
	if paths.CPU != "" {
		f, err := os.Create(paths.CPU)
		if err != nil {
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		p.cpu = f
	}
	if paths.Mutex != "" {
		runtime.SetMutexProfileFraction(1)
	}
	if paths.Block != "" {
		runtime.SetBlockProfileRate(1)
	}
	return p, nil
}

// Stop ends the CPU profile and writes the others, each once: a second
// Stop (deferred, after one whose error was checked) does nothing.
func (p *Profiler) Stop() error {
	if p.cpu != nil {
		pprof.StopCPUProfile()
		if err := p.cpu.Close(); err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		p.cpu = nil
	}
	if p.paths.Mem != "" {
		runtime.GC()
	}
	for _, w := range []struct {
		path        *string
		name, flag  string
		stopSampler func()
	}{
		{&p.paths.Mem, "allocs", "--memprofile", func() {}},
		{&p.paths.Mutex, "mutex", "--mutexprofile", func() { runtime.SetMutexProfileFraction(0) }},
		{&p.paths.Block, "block", "--blockprofile", func() { runtime.SetBlockProfileRate(0) }},
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
