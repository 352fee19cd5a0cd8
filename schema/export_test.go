package schema

// WithCompactFault returns o with f called at each step of its compaction
// ("written", "renamed", "record", "remove"); an error f returns stops the
// compaction there.
func WithCompactFault(o CompactOptions, f func(step string) error) CompactOptions {
	o.onStep = f
	return o
}
