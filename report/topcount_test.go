package report

import (
	"fmt"
	"testing"
)

func TestTopCounterExactWithoutPruning(t *testing.T) {
	tc := newTopCounter(100)
	for i := range 10 {
		for range i + 1 {
			tc.add(fmt.Sprintf("k%d", i), i%2, [2]string{"x", ""})
		}
	}
	top := tc.top(3, 2, -1)
	want := []topKey{
		{key: "k9", extra: [2]string{"x", ""}, counts: []int64{0, 10}, total: 10},
		{key: "k8", extra: [2]string{"x", ""}, counts: []int64{9, 0}, total: 9},
		{key: "k7", extra: [2]string{"x", ""}, counts: []int64{0, 8}, total: 8},
	}
	if fmt.Sprint(top) != fmt.Sprint(want) {
		t.Errorf("top %v, want %v", top, want)
	}
	if tc.slack != 0 {
		t.Errorf("slack %d without pruning", tc.slack)
	}
	if top := tc.top(1, 2, 0); top[0].key != "k8" {
		t.Errorf("top by group 0: %v, want k8", top)
	}
}

// A long tail of one-off keys interleaved with a few heavy ones: the heavy
// keys come out exact, and every count is within slack of the truth.
func TestTopCounterPruning(t *testing.T) {
	tc := newTopCounter(64)
	truth := map[string]int64{}
	add := func(k string) {
		tc.add(k, 0, [2]string{})
		truth[k]++
	}
	for i := range 20_000 {
		add(fmt.Sprintf("tail%d", i))
		if i%3 == 0 {
			add("heavy-a")
		}
		if i%7 == 0 {
			add("heavy-b")
		}
	}
	if tc.slack == 0 || len(tc.counts) > 64 {
		t.Fatalf("no pruning happened (slack %d, %d keys)", tc.slack, len(tc.counts))
	}
	top := tc.top(2, 1, -1)
	if top[0].key != "heavy-a" || top[1].key != "heavy-b" {
		t.Fatalf("top %v", top)
	}
	for _, k := range tc.top(64, 1, 0) {
		if d := truth[k.key] - k.counts[0]; d < 0 || d > tc.slack {
			t.Errorf("%s: counted %d, truly %d, slack %d", k.key, k.counts[0], truth[k.key], tc.slack)
		}
	}
	if top[0].counts[0] != truth["heavy-a"] || top[1].counts[0] != truth["heavy-b"] {
		t.Errorf("heavy keys not exact: %v vs %d, %d", top, truth["heavy-a"], truth["heavy-b"])
	}
}
