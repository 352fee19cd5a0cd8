package stats

import (
	"fmt"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/schema"
)

// TestIndexedVerdictsSameOnCorpus runs the corpus with every set decided
// through the index and compares all four verdicts with the direct path.
func TestIndexedVerdictsSameOnCorpus(t *testing.T) {
	files := corpusFiles(t)
	if testing.Short() && len(files) > 200 {
		files = files[:200]
	}
	run := func(alwaysIndex bool) [][]string {
		a, _ := NewAnalyzer(DefaultOptions())
		a.vd.AlwaysIndex = alwaysIndex
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
	direct, indexed := run(false), run(true)
	for i := range direct {
		for j := range direct[i] {
			if direct[i][j] != indexed[i][j] {
				t.Errorf("%s bot %d: direct %s, indexed %s", files[i], j, direct[i][j], indexed[i][j])
			}
		}
	}
}

// TestVerdictWorstCase runs a file built so that every allow rule must be
// probed and every probe is won back by a longer disallow (quadratic without
// the index) through the analyzer: every bot's verdict is full. The work the
// index does on it is bounded, by count rather than by time, in package
// verdict (TestVerdictWorstCaseLinear).
func TestVerdictWorstCase(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("User-agent: *\nDisallow: /\n")
	for i := 0; i < 12000; i++ {
		fmt.Fprintf(&sb, "Allow: /p%d\nDisallow: /p%d*\n", i, i)
	}
	a, _ := NewAnalyzer(DefaultOptions())
	var rows schema.Batch
	a.Analyze(captureOf([]byte(sb.String()), 200), &rows)
	for _, b := range rows.BotRows() {
		if b.Verdict != schema.VerdictFull {
			t.Fatalf("%s: %s, want full", b.Bot, b.Verdict)
		}
	}
}
