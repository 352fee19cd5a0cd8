package schema

// SetCompactFault makes Compact call f at each of its steps ("written",
// "renamed", "record", "remove"); an error f returns stops it there. The
// returned function restores the default.
func SetCompactFault(f func(step string) error) (restore func()) {
	compactFault = f
	return func() { compactFault = nil }
}
