package reduce_test

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/reduce"
	"github.com/robotstat/robotstat/reduce/reducetest"
	"github.com/robotstat/robotstat/stats"
)

// copies returns n copies of the fixture's and the rules' sites, each on
// hosts of its own (every host of copy i prefixed "hi-"), so that a crawl
// has their mix of redirects, targets on other hosts and failures.
func copies(n int) []reducetest.Site {
	base := append(append([]reducetest.Site(nil), reducetest.Sites...), rules...)
	var out []reducetest.Site
	for i := range n {
		prefix := "h" + strconv.Itoa(i) + "-"
		rename := func(u string) string {
			if u == "" || strings.HasPrefix(u, "/") {
				return u
			}
			scheme, rest, _ := strings.Cut(u, "://")
			return scheme + "://" + prefix + rest
		}
		for _, s := range base {
			s.Host = prefix + s.Host
			s.Fetches = append([]reducetest.Fetch(nil), s.Fetches...)
			for k := range s.Fetches {
				s.Fetches[k].URL, s.Fetches[k].Location = rename(s.Fetches[k].URL), rename(s.Fetches[k].Location)
			}
			out = append(out, s)
		}
	}
	return out
}

// BenchmarkSites rebuilds the reduce tables of a dataset of 100 copies of
// the fixture's and the rules' hosts (3,800 sites, 7,800 captures a
// crawl): one crawl (sites and site_bots), and two (site_history too).
func BenchmarkSites(b *testing.B) {
	sites := copies(100)
	for _, crawls := range []int{1, 2} {
		b.Run(strconv.Itoa(crawls)+"_crawls", func(b *testing.B) {
			dir := filepath.Join(b.TempDir(), "out")
			for c := range crawls {
				if err := reducetest.WriteDataset(dir, "CC-MAIN-2025-0"+strconv.Itoa(5+c), sites, stats.DefaultOptions()); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := reduce.Sites(b.Context(), reduce.Options{Dir: dir, Version: "bench"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
