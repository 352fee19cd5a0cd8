package stats

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/internal/testkit"
	"github.com/robotstat/robotstat/record"
	"github.com/robotstat/robotstat/schema"
)

// corpusFiles and avuimFiles are testkit's (shared with lint and cmd).
var (
	corpusFiles = testkit.CorpusFiles
	avuimFiles  = testkit.AvuimFiles
)

// analyzeFiles runs a over each file as a 200 capture and calls fn with the
// file's rows, which are valid until fn returns.
func analyzeFiles(t testing.TB, a *Analyzer, files []string, fn func(file string, rows *schema.Batch)) {
	t.Helper()
	var rows schema.Batch
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rows.Reset()
		a.Analyze(captureOf(b, 200), &rows)
		fn(f, &rows)
	}
}

// TestCorpusInvariants runs every real file through the Analyzer with all
// tables and checks relations that must hold whatever the file says.
func TestCorpusInvariants(t *testing.T) {
	files := corpusFiles(t)
	if testing.Short() && len(files) > 100 {
		files = files[:100]
	}
	o := DefaultOptions()
	o.Tables = schema.AllTables()
	a, err := NewAnalyzer(o)
	if err != nil {
		t.Fatal(err)
	}
	var rows, again schema.Batch
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c := &record.Capture{Source: f, URL: "https://" + strings.TrimSuffix(filepath.Base(f), "-robots.txt") + "/robots.txt", Status: 200, Body: body, BodyLen: int64(len(body))}
		rows.Reset()
		a.Analyze(c, &rows)
		cr := rows.Captures[0]
		name := filepath.Base(f)
		if sum := cr.BlankLines + cr.CommentLines + cr.DirectiveLines + cr.InvalidLines; sum > cr.Lines || cr.Lines-sum > 1 {
			t.Errorf("%s: %d lines but %d classified", name, cr.Lines, sum)
		}
		if int(cr.Groups) != len(rows.Groups) || cr.AllowRules+cr.DisallowRules != int32(len(rows.Rules)) || int(cr.Sitemaps) != len(rows.Sitemaps) {
			t.Errorf("%s: table sizes disagree with capture counts", name)
		}
		for _, b := range rows.BotRows() {
			switch {
			case b.RootAllowed == nil:
				t.Errorf("%s %s: root_allowed NULL on a parsed file", name, b.Bot)
			case b.Verdict == schema.VerdictFull && *b.RootAllowed, b.Verdict == schema.VerdictNone && !*b.RootAllowed:
				t.Errorf("%s %s: verdict %s with root allowed %v", name, b.Bot, b.Verdict, *b.RootAllowed)
			}
			// Somesite tests a subset of paths, so robotstat's full and
			// none (claims about every path) imply the same for somesite.
			if (b.Verdict == schema.VerdictFull || b.Verdict == schema.VerdictNone) && b.Somesite != b.Verdict {
				t.Errorf("%s %s: verdict %s but somesite %s", name, b.Bot, b.Verdict, b.Somesite)
			}
			if b.CIC == schema.CICAll && b.Verdict != schema.VerdictFull || b.CCClass == schema.CCClassDisallowAll && b.Verdict != schema.VerdictFull && b.Matched != "named" {
				t.Errorf("%s %s: cic %s cc %s but verdict %s", name, b.Bot, b.CIC, b.CCClass, b.Verdict)
			}
		}
		// Same input, same rows.
		again.Reset()
		a.Analyze(c, &again)
		if !reflect.DeepEqual(rows.Captures, again.Captures) || !reflect.DeepEqual(rows.BotRows(), again.BotRows()) ||
			!reflect.DeepEqual(rows.Groups, again.Groups) || !reflect.DeepEqual(rows.Directives, again.Directives) {
			t.Errorf("%s: second run differs", name)
		}
	}
}

// TestGPTBotVerdictsSharedCorpus pins the GPTBot verdict combinations over
// the 1,347 avuim files that VERDICTS.md reports.
func TestGPTBotVerdictsSharedCorpus(t *testing.T) {
	files := avuimFiles(t)
	if len(files) != 1347 {
		t.Skip("shared corpus not the 1,347 files VERDICTS.md counts")
	}
	a, _ := NewAnalyzer(withBots(DefaultOptions()))
	got := map[string]int{}
	analyzeFiles(t, a, files, func(_ string, rows *schema.Batch) {
		for _, b := range rows.BotRows() {
			if b.Bot == "GPTBot" {
				got[b.Verdict+"/"+b.Somesite+"/"+b.CIC+"/"+b.CCClass]++
			}
		}
	})
	want := map[string]int{
		"full/full/all/disallow-all":      327,
		"full/full/all/allow-part":        7,
		"none/none/none/allow-all":        250,
		"partial/partial/some/allow-part": 750,
		"partial/partial/none/allow-part": 10,
		"none/none/none/allow-part":       2,
		"partial/none/some/allow-part":    1,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}
