package stats

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/schema"
)

// TestRuleIndexMatchesDecideSet compares the index with parse's DecideSet on
// random files and paths.
func TestRuleIndexMatchesDecideSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	chars := []byte("/ab~.*$")
	pathChars := []byte("/ab~.")
	var r parse.Robots
	p := parse.NewParser(parse.Options{})
	var x ruleIndex
	for i := 0; i < 2000; i++ {
		var sb strings.Builder
		sb.WriteString("User-agent: x\n")
		for k := rng.IntN(12) + 1; k > 0; k-- {
			sb.WriteString([]string{"Allow: ", "Disallow: "}[rng.IntN(2)])
			if rng.IntN(5) > 0 {
				sb.WriteByte('/')
			}
			for j := rng.IntN(5); j > 0; j-- {
				sb.WriteByte(chars[rng.IntN(len(chars))])
			}
			sb.WriteByte('\n')
		}
		p.Compile([]byte(sb.String()), &r)
		id, m := r.Lookup("x")
		x.build(&r, id)
		for j := 0; j < 50; j++ {
			path := []byte{'/'}
			for k := rng.IntN(7); k > 0; k-- {
				path = append(path, pathChars[rng.IntN(len(pathChars))])
			}
			if string(path) == "/robots.txt" {
				continue
			}
			want := r.DecideSet(id, m, "http://h"+string(path)).Allowed
			if got := x.allowed(path); got != want {
				t.Fatalf("%q path %q: index %v, DecideSet %v", sb.String(), path, got, want)
			}
		}
	}
}

// TestIndexedVerdictsSameOnCorpus runs the corpus with every set decided
// through the index and compares all four verdicts with the direct path.
func TestIndexedVerdictsSameOnCorpus(t *testing.T) {
	files := corpusFiles(t)
	if testing.Short() && len(files) > 200 {
		files = files[:200]
	}
	run := func(threshold int) [][]string {
		old := indexThreshold
		indexThreshold = threshold
		defer func() { indexThreshold = old }()
		a, _ := NewAnalyzer(DefaultOptions())
		var out [][]string
		analyzeFiles(t, a, files, func(_ string, rows *schema.Batch) {
			var s []string
			for _, bot := range rows.BotRows() {
				s = append(s, bot.Verdict+bot.Somesite+bot.CIC+bot.CCClass)
			}
			out = append(out, s)
		})
		return out
	}
	direct, indexed := run(1<<30), run(0)
	for i := range direct {
		for j := range direct[i] {
			if direct[i][j] != indexed[i][j] {
				t.Errorf("%s bot %d: direct %s, indexed %s", files[i], j, direct[i][j], indexed[i][j])
			}
		}
	}
}

// TestVerdictWorstCase bounds the time of a file built so that every allow
// rule must be probed and every probe is won back by a longer disallow:
// quadratic without the index.
func TestVerdictWorstCase(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("User-agent: *\nDisallow: /\n")
	for i := 0; i < 12000; i++ {
		fmt.Fprintf(&sb, "Allow: /p%d\nDisallow: /p%d*\n", i, i)
	}
	a, _ := NewAnalyzer(DefaultOptions())
	var rows schema.Batch
	start := time.Now()
	a.Analyze(captureOf([]byte(sb.String()), 200), &rows)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("%d bytes took %v", sb.Len(), d)
	}
	for _, b := range rows.BotRows() {
		if b.Verdict != schema.VerdictFull {
			t.Fatalf("%s: %s, want full", b.Bot, b.Verdict)
		}
	}
}
