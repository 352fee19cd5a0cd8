package runs

// MemoryLimit returns the soft heap limit (runtime/debug.SetMemoryLimit)
// for a run of workers workers (0: none), flagMiB the limit asked for in
// MiB (0: the default, -1: none), getenv the environment's. The live
// heap of a run is flat (bounded buffers, files that roll over), but without
// a limit the garbage collector lets the heap grow to twice the live size on
// long runs, so RSS crept up with the input (261 MiB at 100k captures, 344
// MiB at 1M, 2 workers). A soft limit above the live heap (~140-160 MB with
// 2 workers) keeps RSS flat for ~4% more GC CPU; it grows with the workers,
// whose buffers make up most of the live heap. GOMEMLIMIT, when set, wins
// (the Go runtime has already applied it); -1 turns the limit off.
func MemoryLimit(flagMiB, workers int, getenv func(string) string) int64 {
	switch {
	case flagMiB < 0:
		return 0
	case flagMiB > 0:
		return int64(flagMiB) << 20
	case getenv != nil && getenv("GOMEMLIMIT") != "":
		return 0
	}
	return int64(224+32*workers) << 20
}
