package pipeline

import (
	"context"
	"errors"
	"os"
	"sort"
	"sync"
	"testing"

	"github.com/robotstat/robotstat/record"
)

// corpus is the shared real data, beside the repository (CI has it too).
const corpus = "../../shared/corpus/"

// got is a capture copied out of the consumer.
type got struct {
	record.Capture
	Body string
}

// collect runs the pipeline and keeps a copy of every capture, sorted by
// source and record index so that tests can index them.
func collect(t testing.TB, cfg Config, inputs ...string) ([]got, Summary, error) {
	t.Helper()
	var mu sync.Mutex
	var out []got
	sum, err := Run(context.Background(), cfg, inputs, func(w int, c *record.Capture) error {
		if w < 0 || w >= max(cfg.Workers, 1) && cfg.Workers != 0 {
			return errors.New("worker out of range")
		}
		g := got{Capture: *c, Body: string(c.Body)}
		g.Capture.Body = nil
		mu.Lock()
		out = append(out, g)
		mu.Unlock()
		return nil
	})
	sort.Slice(out, func(i, j int) bool {
		if out[i].Source != out[j].Source {
			return out[i].Source < out[j].Source
		}
		return out[i].Index < out[j].Index
	})
	return out, sum, err
}

func needCorpus(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(corpus + "README.md"); err != nil {
		t.Skipf("shared corpus not found at %s", corpus)
	}
}

func statusCounts(caps []got) map[int]int {
	m := map[int]int{}
	for _, c := range caps {
		m[c.Status]++
	}
	return m
}

func find(caps []got, url string) *got {
	for i := range caps {
		if caps[i].URL == url {
			return &caps[i]
		}
	}
	return nil
}
