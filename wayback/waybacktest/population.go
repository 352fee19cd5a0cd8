package waybacktest

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/robotstat/robotstat/wayback"
)

// Population is a synthetic archive of sites' robots.txt histories, for
// measuring what a Wayback panel costs. Its shape is an assumption, not a
// measurement of the archive; each field says what it models.
type Population struct {
	Seed  uint64
	Sites int
	Range wayback.Range
	// Captured is the share of months with at least one capture of a
	// site's robots.txt (the archive crawls popular sites' robots.txt
	// often; a month may hold several captures, of which the first
	// counts).
	Captured float64
	// MaxChanges bounds the times a site's robots.txt body changes over
	// the range (uniform in 0..MaxChanges).
	MaxChanges int
	// HTTPS is the share of sites whose http:// robots.txt redirects to
	// https:// from a month on (the archive then captures both; the first
	// of a month is either).
	HTTPS float64
	// WWW is the share of sites that redirect to www. (https).
	WWW float64
	// Gone is the share of sites whose robots.txt is a 404 throughout.
	Gone float64
}

// DefaultPopulation is the shape the README's estimate uses.
func DefaultPopulation(sites int, r wayback.Range) Population {
	return Population{Seed: 1, Sites: sites, Range: r, Captured: 0.85, MaxChanges: 4, HTTPS: 0.5, WWW: 0.2, Gone: 0.05}
}

// Generate returns the population's listed hosts and its captures.
func (p Population) Generate() (hosts []string, caps []Capture) {
	r := rand.New(rand.NewPCG(p.Seed, 27))
	n := p.Range.Months()
	for i := range p.Sites {
		h := fmt.Sprintf("site%05d.example", i)
		hosts = append(hosts, h)
		gone := r.Float64() < p.Gone
		www := r.Float64() < p.WWW
		httpsFrom := n + 1
		if r.Float64() < p.HTTPS {
			httpsFrom = r.IntN(n)
		}
		changes := map[int]bool{}
		for range r.IntN(p.MaxChanges + 1) {
			changes[r.IntN(n)] = true
		}
		version := 0
		for m := range n {
			if changes[m] {
				version++
			}
			if r.Float64() >= p.Captured {
				continue
			}
			first := (p.Range.From + wayback.Month(m)).First()
			for k := range 1 + r.IntN(3) {
				t := first.Add(time.Duration(r.IntN(27*24)+k*24) * time.Hour)
				body := fmt.Sprintf("User-agent: *\nDisallow: /v%d/\n", version)
				if version >= 2 {
					body = fmt.Sprintf("User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /v%d/\n", version)
				}
				final := "https://" + h + "/robots.txt"
				if www {
					final = "https://www." + h + "/robots.txt"
				}
				switch {
				case gone:
					caps = append(caps, Capture{URL: "http://" + h + "/robots.txt", Time: t, Status: 404, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("Not Found")})
				case m >= httpsFrom && r.IntN(2) == 0:
					caps = append(caps, Redirect("http://"+h+"/robots.txt", t, 301, final), Robots(final, t.Add(time.Minute), body))
				case m >= httpsFrom:
					caps = append(caps, Robots(final, t, body))
				case www:
					caps = append(caps, Redirect("http://"+h+"/robots.txt", t, 301, "http://www."+h+"/robots.txt"), Robots("http://www."+h+"/robots.txt", t.Add(time.Minute), body))
				default:
					caps = append(caps, Robots("http://"+h+"/robots.txt", t, body))
				}
			}
		}
	}
	return hosts, caps
}
