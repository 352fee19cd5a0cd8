// Package compare benchmarks robotstat's parser and matcher against
// github.com/temoto/robotstxt on the same real files and the same questions.
// It is its own module so that temoto never reaches robotstat's go.mod.
//
//	cd scripts/compare-temoto && go test -run '^$' -bench . -count 10 | tee /tmp/cmp.txt
//	../bench-compare.sh    # runs that and prints the throughput ratio
package compare

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/robotstat/robotstat/parse"
	"github.com/temoto/robotstxt"
)

const corpusDir = "../../../shared/corpus/robots"

var (
	agents = []string{"GPTBot", "ClaudeBot", "CCBot", "Google-Extended", "Googlebot", "Bingbot", "PerplexityBot", "randombot"}
	urls   = []string{"/", "/news/2025/article.html", "/search?q=robots&page=2", "/wp-admin/admin-ajax.php", "/produkte/k%C3%BCche/", "/images/logo.png"}
)

type corpus struct {
	name   string
	bodies [][]byte
	bytes  int64
}

func load(tb testing.TB) []corpus {
	var out []corpus
	for _, name := range []string{"texting-robots", "avuim-2025"} {
		files, _ := filepath.Glob(filepath.Join(corpusDir, name, "*"))
		sort.Strings(files)
		c := corpus{name: name}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			c.bodies = append(c.bodies, b)
			c.bytes += int64(len(b))
		}
		if len(c.bodies) == 0 {
			tb.Skipf("corpus %s not found at %s", name, corpusDir)
		}
		out = append(out, c)
	}
	return out
}

var sink int

// BenchmarkParseDecide parses each file and asks every agent x URL, with
// both libraries. Compare the MB/s of impl=robotstat and impl=temoto.
func BenchmarkParseDecide(b *testing.B) {
	for _, c := range load(b) {
		b.Run("corpus="+c.name+"/impl=robotstat", func(b *testing.B) {
			p := parse.NewParser(parse.Options{})
			var r parse.Robots
			b.SetBytes(c.bytes)
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				for _, body := range c.bodies {
					p.Compile(body, &r)
					for _, a := range agents {
						id, m := r.Lookup(a)
						for _, u := range urls {
							if r.DecideSet(id, m, u).Allowed {
								n++
							}
						}
					}
				}
			}
			sink = n
		})
		b.Run("corpus="+c.name+"/impl=temoto", func(b *testing.B) {
			b.SetBytes(c.bytes)
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				for _, body := range c.bodies {
					data, err := robotstxt.FromBytes(body)
					if err != nil {
						continue
					}
					for _, a := range agents {
						g := data.FindGroup(a)
						for _, u := range urls {
							if g.Test(u) {
								n++
							}
						}
					}
				}
			}
			sink = n
		})
	}
}

// TestSameQuestions guards the comparison: both libraries must be asked the
// same questions about the same files and mostly agree, or the benchmark
// compares different work.
func TestSameQuestions(t *testing.T) {
	for _, c := range load(t) {
		p := parse.NewParser(parse.Options{})
		var r parse.Robots
		total, differ, failed := 0, 0, 0
		for _, body := range c.bodies {
			p.Compile(body, &r)
			data, err := robotstxt.FromBytes(body)
			if err != nil {
				failed++
				continue
			}
			for _, a := range agents {
				for _, u := range urls {
					total++
					if r.Decide(a, u).Allowed != data.TestAgent(u, a) {
						differ++
					}
				}
			}
		}
		t.Logf("%s: %d decisions, %d differ (%.2f%%), %d files temoto could not parse", c.name, total, differ, 100*float64(differ)/float64(total), failed)
		if total == 0 || float64(differ) > 0.05*float64(total) {
			t.Errorf("%s: %d of %d decisions differ; the libraries are not answering the same questions", c.name, differ, total)
		}
	}
}
