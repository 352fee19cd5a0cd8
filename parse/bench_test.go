package parse

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// corpusDir is the shared corpus of real robots.txt files (see
// ../../shared/corpus/README.md). Benchmarks over it are skipped when it is
// absent; parse/testdata has a small copy for tests that must run anyway.
const corpusDir = "../../shared/corpus/robots"

type fixture struct {
	name   string
	bodies [][]byte
	bytes  int64
}

// fixtures returns one fixture per file of parse/testdata and of the
// texting-robots corpus, and one for the whole avuim-2025 corpus (1,347
// files, too many for a sub-benchmark each).
func fixtures(b *testing.B) []fixture {
	var out []fixture
	add := func(name string, files []string) {
		f := fixture{name: name}
		for _, p := range files {
			body, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			f.bodies = append(f.bodies, body)
			f.bytes += int64(len(body))
		}
		if len(f.bodies) > 0 {
			out = append(out, f)
		}
	}
	local, _ := filepath.Glob("testdata/*.robots.txt")
	texting, _ := filepath.Glob(filepath.Join(corpusDir, "texting-robots", "*"))
	sort.Strings(local)
	sort.Strings(texting)
	for _, p := range local {
		add("testdata-"+filepath.Base(p), []string{p})
	}
	for _, p := range texting {
		add("texting-"+filepath.Base(p), []string{p})
	}
	avuim, _ := filepath.Glob(filepath.Join(corpusDir, "avuim-2025", "*"))
	sort.Strings(avuim)
	add("avuim-2025-all", avuim)
	return out
}

// probeAgents and probeURLs are the decisions BenchmarkParseDecide asks of
// every file: the AI crawlers researchers ask about, a search engine, a
// generic agent; the root, a deep page, a query, a non-ASCII path.
var (
	probeAgents = []string{"GPTBot", "ClaudeBot", "CCBot", "Google-Extended", "Googlebot", "Bingbot", "PerplexityBot", "randombot"}
	probeURLs   = []string{"/", "/news/2025/article.html", "/search?q=robots&page=2", "/wp-admin/admin-ajax.php", "/produkte/küche/", "/images/logo.png"}
)

func BenchmarkParse(b *testing.B) {
	for _, f := range fixtures(b) {
		b.Run(f.name, func(b *testing.B) {
			p := NewParser(Options{})
			var nop NopHandler
			b.SetBytes(f.bytes)
			b.ReportAllocs()
			for b.Loop() {
				for _, body := range f.bodies {
					p.Parse(body, nop)
				}
			}
		})
	}
}

func BenchmarkCompile(b *testing.B) {
	for _, f := range fixtures(b) {
		b.Run(f.name, func(b *testing.B) {
			p := NewParser(Options{})
			var r Robots
			b.SetBytes(f.bytes)
			b.ReportAllocs()
			for b.Loop() {
				for _, body := range f.bodies {
					p.Compile(body, &r)
				}
			}
		})
	}
}

// BenchmarkParseDecide is the workload compared against temoto/robotstxt in
// scripts/compare-temoto: compile each file, then decide every probe agent x
// URL.
func BenchmarkParseDecide(b *testing.B) {
	for _, f := range fixtures(b) {
		b.Run(f.name, func(b *testing.B) {
			p := NewParser(Options{})
			var r Robots
			b.SetBytes(f.bytes)
			b.ReportAllocs()
			allowed := 0
			for b.Loop() {
				for _, body := range f.bodies {
					p.Compile(body, &r)
					for _, a := range probeAgents {
						for _, u := range probeURLs {
							if r.Decide(a, u).Allowed {
								allowed++
							}
						}
					}
				}
			}
			sink = allowed
		})
	}
}

var sink int

// BenchmarkDecide measures decisions alone against an already compiled file.
func BenchmarkDecide(b *testing.B) {
	for _, f := range fixtures(b) {
		b.Run(f.name, func(b *testing.B) {
			p := NewParser(Options{})
			rs := make([]Robots, len(f.bodies))
			for i, body := range f.bodies {
				p.Compile(body, &rs[i])
			}
			n := len(rs) * len(probeAgents) * len(probeURLs)
			b.ReportAllocs()
			allowed := 0
			for b.Loop() {
				for i := range rs {
					for _, a := range probeAgents {
						for _, u := range probeURLs {
							if rs[i].Decide(a, u).Allowed {
								allowed++
							}
						}
					}
				}
			}
			sink = allowed
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
		})
	}
}

// BenchmarkAdversarial is the worst case match.go documents.
func BenchmarkAdversarial(b *testing.B) {
	var r Robots
	NewParser(Options{}).Compile([]byte("User-agent: *\nDisallow: /*a*a*a*a*a*b\nDisallow: /*a*a*a*a*a*ab$\n"), &r)
	path := make([]byte, 1+100000)
	path[0] = '/'
	for i := 1; i < len(path); i++ {
		path[i] = 'a'
	}
	url := string(path)
	b.SetBytes(int64(len(url)))
	b.ReportAllocs()
	for b.Loop() {
		if !r.Decide("x", url).Allowed {
			b.Fatal("adversarial path disallowed")
		}
	}
}
