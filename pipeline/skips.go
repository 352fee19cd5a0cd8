package pipeline

import (
	"github.com/robotstat/robotstat/internal/textesc"
	"slices"
	"sync"
	"sync/atomic"
)

// maxSkipExamples bounds the names a skip count keeps as examples.
const maxSkipExamples = 3

// skipCounter counts what a run read past without making a capture of it,
// keeping the lexically smallest few names as examples, so that what is
// reported is the same whatever order parallel inputs were read in. Safe
// for concurrent use.
type skipCounter struct {
	n        atomic.Int64
	mu       sync.Mutex
	examples []string
}

// add counts name, kept as an example printable (textesc.Message): the
// examples are printed.
func (s *skipCounter) add(name string) {
	name = textesc.Message(name)
	s.n.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	i, found := slices.BinarySearch(s.examples, name)
	if found || i >= maxSkipExamples {
		return
	}
	s.examples = slices.Insert(s.examples, i, name)
	if len(s.examples) > maxSkipExamples {
		s.examples = s.examples[:maxSkipExamples]
	}
}

func (s *skipCounter) load() (int64, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n.Load(), slices.Clone(s.examples)
}
