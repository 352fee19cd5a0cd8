// Package reporttest writes the report fixture: a robotstat dataset of four
// crawls that exercises every table and chart of robotstat report, for the
// report package's tests and for scripts/report-screenshot.sh (through
// scripts/reportfixture).
package reporttest

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/robotstat/robotstat/record"
	"github.com/robotstat/robotstat/reduce"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/stats"
)

// The report fixture: four crawls of the same 400 made-up sites whose AI
// blocking grows from crawl to crawl (more so among highly ranked sites),
// some of which lift their block in the last crawl, with real robots.txt
// bodies from testdata/avuim mixed in, Content-Signal lines in the *
// group, in a named group and outside any group (one of them allowing the
// training the rules refuse), Content-Usage rules with and without a path,
// 4xx, 5xx and redirects (whose targets are captures of their own),
// repeated captures of a host, a capture of another path and ranks from 1
// to millions. It goes through the real Analyzer and Dataset writer, so the
// Parquet is what robotstat analyze would write.
//
//	go run ./scripts/reportfixture /tmp/fixture
//
// writes it for scripts/report-screenshot.sh.

// Crawls are the fixture's crawls, in order.
var Crawls = []string{"CC-MAIN-2023-50", "CC-MAIN-2024-18", "CC-MAIN-2024-42", "CC-MAIN-2025-08"}

const fixtureSites = 400

// rng is a small deterministic generator (splitmix64), so the fixture is the
// same on every platform and Go version.
type rng uint64

func (r *rng) next() uint64 {
	*r += 0x9E3779B97F4A7C15
	z := uint64(*r)
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }

// fixtureSite is what does not change between crawls.
type fixtureSite struct {
	host     string
	rank     int64
	adopt    float64 // the lower, the earlier it blocks AI crawlers
	breadth  float64 // the lower, the more AI crawlers it names
	base     string  // its robots.txt without the AI block
	status   float64 // chooses 4xx/5xx/3xx
	repeated bool    // fetched twice per crawl (http and https)
	lapse    bool    // lifts its AI block in the last crawl
	signal   float64 // chooses its AI-use signals
}

// bodiesOf reads the real robots.txt bodies of folder (*-robots.txt files).
func bodiesOf(folder string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(folder, "*-robots.txt"))
	if err == nil && len(files) == 0 {
		err = fmt.Errorf("no *-robots.txt file in %s", folder)
	}
	if err != nil {
		return nil, fmt.Errorf("fixture bodies: %w", err)
	}
	sort.Strings(files)
	var bodies []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("fixture bodies: %w", err)
		}
		bodies = append(bodies, string(b))
	}
	return bodies, nil
}

func fixtureSitesOf(real []string) []fixtureSite {
	synthetic := []string{
		"User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\nSitemap: https://HOST/wp-sitemap.xml\n",
		"User-agent: *\nDisallow: /search\nDisallow: /cart\nCrawl-delay: 10\n",
		"User-agent: *\nDisallow:\n",
		"User-agent: *\nDisallow: /\n",
		"User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /private/\nSitemap: https://HOST/sitemap.xml\n",
		"",
	}
	r := rng(42)
	sites := make([]fixtureSite, fixtureSites)
	for i := range sites {
		s := &sites[i]
		s.host = fmt.Sprintf("site%03d.example", i)
		if i%6 != 5 {
			s.rank = int64(math.Exp(r.float() * math.Log(3e6)))
		}
		s.adopt, s.breadth, s.status = r.float(), r.float(), r.float()
		if s.rank > 0 && s.rank <= 10_000 {
			s.adopt *= 0.55 // popular sites block earlier
		}
		if i%4 == 0 {
			s.base = real[(i/4)%len(real)]
		} else {
			s.base = strings.ReplaceAll(synthetic[int(r.next()%uint64(len(synthetic)))], "HOST", s.host)
		}
		s.repeated = i%9 == 0
		s.lapse = i%7 == 3
		s.signal = r.float()
	}
	return sites
}

// aiBlock returns the AI block site s puts before its rules in crawl k, or
// "" while it has none.
func (s *fixtureSite) aiBlock(k int) string {
	if s.lapse && k == len(Crawls)-1 && s.adopt < 0.16 {
		return "" // blocked from the second crawl on at the latest, lifted in the last
	}
	if s.adopt >= 0.07+0.09*float64(k) {
		if s.adopt < 0.5+0.05*float64(k) && s.breadth < 0.15 {
			return "User-agent: GPTBot\nDisallow: /articles/\n\n" // partial
		}
		return ""
	}
	bots := []string{"GPTBot"}
	if s.breadth < 0.75 {
		bots = append(bots, "CCBot")
	}
	if s.breadth < 0.45 || k >= 2 && s.breadth < 0.8 {
		bots = append(bots, "ClaudeBot", "anthropic-ai")
	}
	if s.breadth < 0.4 {
		bots = append(bots, "Google-Extended")
	}
	if s.breadth < 0.3 || k >= 3 && s.breadth < 0.6 {
		bots = append(bots, "PerplexityBot", "Bytespider", "Meta-ExternalAgent")
	}
	if s.breadth < 0.1 {
		bots = append(bots, "Applebot-Extended", "Amazonbot", "OAI-SearchBot")
	}
	var b strings.Builder
	for _, bot := range bots {
		b.WriteString("User-agent: " + bot + "\n")
	}
	b.WriteString("Disallow: /\n\n")
	if s.breadth > 0.9 {
		b.WriteString("Content-Signal: search=yes, ai-train=no\n") // in the group above: a named one
	}
	return b.String()
}

// signals returns the AI-use lines site s puts first in crawl k.
func (s *fixtureSite) signals(k int) string {
	switch {
	case s.signal < 0.03 && k >= 1:
		// contradicts a block of the training bots, if it has one
		return "Content-Signal: ai-train=yes, search=yes\n\n"
	case s.signal < 0.12 && k >= 1+int(s.signal*20)%3:
		return "User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /\n\n"
	case s.signal < 0.18 && k >= 2:
		return "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /public/ train-ai=y\nAllow: /\n\n"
	case s.signal < 0.20 && k == 3:
		return "User-agent: *\nContent-Signal: use=reference, ai-train=no\nContent-Usage: bots=n\nAllow: /\n\n"
	}
	return ""
}

// fixtureCaptures returns the captures of crawl k.
func fixtureCaptures(sites []fixtureSite, k int) []record.Capture {
	crawl := Crawls[k]
	var out []record.Capture
	add := func(url string, robotsPath bool, status int, body, location string) {
		n := len(out)
		out = append(out, record.Capture{
			Source: crawl + "-robotstxt-00000.warc.gz", Offset: int64(n) * 4096, Crawl: crawl,
			RecordID: fmt.Sprintf("<urn:uuid:fixture-%s-%06d>", crawl, n),
			URL:      url, RobotsPath: robotsPath, Status: status, Location: location,
			Body: []byte(body), BodyLen: int64(len(body)), ContentType: "text/plain",
		})
	}
	for i := range sites {
		s := &sites[i]
		body := s.signals(k) + s.aiBlock(k) + s.base
		url := "https://" + s.host + "/robots.txt"
		switch {
		case s.status < 0.11:
			add(url, true, 404, "<!DOCTYPE html><title>Not found</title>", "")
		case s.status < 0.125:
			add(url, true, 403, "", "")
		case s.status < 0.14+0.01*float64(k%2):
			add(url, true, 503, "", "")
		case s.status < 0.18:
			target := "https://www." + s.host + "/robots.txt"
			add(url, true, 301, "", target)
			add(target, true, 200, body, "")
		default:
			add(url, true, 200, body, "")
		}
		if s.repeated {
			add("http://"+s.host+"/robots.txt", true, 200, body, "")
		}
	}
	add("https://moved.example/robots/robots.txt", false, 200, "User-agent: *\nDisallow: /\n", "")
	return out
}

// Bodies is where the fixture's real bodies are, relative to the module
// root (the avuim-2025 files stats' tests use, ISC licence; see their
// README).
const Bodies = "testdata/avuim"

// Write writes the fixture dataset under dir, its real bodies read from the
// folder bodies (Bodies, relative to wherever the caller runs), its files
// marked as written by robotstat version. It returns the rank of each ranked
// site by host, for tests that count things themselves.
func Write(dir, bodies, version string) (map[string]int64, error) {
	real, err := bodiesOf(bodies)
	if err != nil {
		return nil, err
	}
	sites := fixtureSitesOf(real)
	ranks := map[string]int64{}
	for _, s := range sites {
		if s.rank > 0 {
			ranks[s.host] = s.rank
			ranks["www."+s.host] = s.rank
		}
	}
	so := stats.DefaultOptions()
	a, err := stats.NewAnalyzer(so)
	if err != nil {
		return nil, err
	}
	ds, err := schema.Create(schema.Options{Dir: dir, RunID: "fixture", Version: version, Metadata: so.Metadata(), TableMetadata: so.TableMetadata()})
	if err != nil {
		return nil, err
	}
	defer ds.Abort()
	sink := ds.Sink()
	for k := range Crawls {
		var rows schema.Batch
		for _, c := range fixtureCaptures(sites, k) {
			before := len(rows.Captures)
			a.Analyze(&c, &rows)
			cr := &rows.Captures[before]
			cr.Rank = ranks[cr.Host]
		}
		if err := sink.Write(&rows); err != nil {
			return nil, err
		}
	}
	if err := ds.Commit(context.Background()); err != nil {
		return nil, err
	}
	if _, err := reduce.Sites(context.Background(), reduce.Options{Dir: dir, Version: version}); err != nil {
		return nil, err
	}
	return ranks, nil
}
