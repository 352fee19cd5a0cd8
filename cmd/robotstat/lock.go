package main

import (
	"fmt"

	"github.com/robotstat/robotstat/schema"
)

// lockOut takes dir's writer lock for command cmd (schema.Lock: exclusive
// for sites and compact; analyze's is runs.Analyze's own), says on stderr
// what its recovery removed of killed runs and when the file system
// cannot lock, and returns the unlock. Another robotstat writing into dir
// is an error naming it (exit 2).
func (m *Main) lockOut(cmd, dir string, exclusive bool) (unlock func(), err error) {
	l, err := schema.Lock(dir, exclusive)
	if err != nil { // schema.ErrLocked among them
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	m.lockNotes(cmd, dir)(l)
	return func() {
		if err := l.Unlock(); err != nil {
			fmt.Fprintf(m.Stderr, "robotstat: %s: %v\n", cmd, err)
		}
	}, nil
}

// lockNotes returns what says on stderr, once cmd holds dir's lock, what
// the lock's recovery removed of killed runs and when the file system
// cannot lock.
func (m *Main) lockNotes(cmd, dir string) func(*schema.DirLock) {
	return func(l *schema.DirLock) {
		for _, n := range l.Notes(dir) {
			fmt.Fprintf(m.Stderr, "robotstat: %s: %s\n", cmd, n)
		}
	}
}
