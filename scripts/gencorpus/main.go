// Command gencorpus writes a Common-Crawl-shaped robotstxt WARC corpus for
// benchmarks: warcinfo with isPartOf, then request + response pairs, one
// gzip member per record, payloads stored decoded with the original codings
// renamed to X-Crawler-*, the status mix of real crawls (about 72% 200,
// 16% 404, 6% redirects with Location, some followed by the redirect
// target's own fetch, 3% 403, 2% 5xx, 1% other) and 200 bodies drawn from
// the real robots.txt files of the shared corpus. Output is deterministic
// for a given seed and body folder.
//
//	go run ./scripts/gencorpus -n 100000 -out /tmp/cc
//
// writes /tmp/cc/robotstxt/CC-MAIN-20240527000000-20240527030000-00000.warc.gz
// and so on, -per-file captures each (the path says "robotstxt", so
// robotstat's --responses auto counts every response, as in Common Crawl),
// of the crawl -crawl (default CC-MAIN-2024-22, the warcinfo's isPartOf)
// dated from -date (default the Monday of the crawl's ISO week, the date
// robotstat gives a crawl by its name).
//
// -crawls writes one site population over several crawls, as a trend
// needs: the same -n hosts in each crawl, each host's robots.txt (its
// status and body) drawn again from one crawl to the next with
// probability -churn, each crawl laid out as Common Crawl's,
//
//	go run ./scripts/gencorpus -n 5000 -out /tmp/mirror -crawls CC-MAIN-2023-06,CC-MAIN-2024-33,CC-MAIN-2025-38
//
// writes /tmp/mirror/crawl-data/CC-MAIN-2023-06/robotstxt/*.warc.gz and so
// on, each crawl's isPartOf its own, so that robotstat analyze
// /tmp/mirror/crawl-data/CC-MAIN-* reads three crawls of 5000 shared hosts
// (fewer where a redirect's target takes a capture's place).
package main

import (
	"bufio"
	"crypto/sha1"
	"encoding/base32"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
)

func main() {
	n := flag.Int("n", 100000, "number of response captures to write (of each crawl with -crawls)")
	perFile := flag.Int("per-file", 50000, "captures per WARC file")
	seed := flag.Uint64("seed", 1, "random seed")
	out := flag.String("out", "", "output folder (required)")
	robots := flag.String("robots", "", "folder of real robots.txt files to draw 200 bodies from (default ../shared/corpus/robots, or the repository's own testdata/avuim without ../shared)")
	level := flag.Int("level", gzip.DefaultCompression, "gzip level (Common Crawl writes Java's default, 6)")
	crawl := flag.String("crawl", "CC-MAIN-2024-22", "the crawl `NAME` the warcinfo's isPartOf gives (CC-MAIN-YYYY-WW)")
	date := flag.String("date", "", "the crawl's first `DAY` (YYYY-MM-DD), the WARC dates' start (default the Monday of the crawl's ISO week)")
	crawls := flag.String("crawls", "", "write one population of -n hosts over these crawls, a `LIST` of names: OUT/crawl-data/NAME/robotstxt/ each")
	churn := flag.Float64("churn", 0.2, "with -crawls: the `SHARE` of hosts whose robots.txt is drawn again from one crawl to the next")
	flag.Parse()
	if *out == "" || *n < 1 || *perFile < 1 || *churn < 0 || *churn > 1 {
		fmt.Fprintln(os.Stderr, "usage: gencorpus -n N -out DIR [-per-file K] [-seed S] [-robots DIR] [-crawl NAME -date DAY | -crawls LIST -churn SHARE]")
		os.Exit(2)
	}
	if *robots == "" {
		*robots = defaultRobots()
	}
	bodies, err := loadBodies(*robots)
	if err != nil {
		fail(err)
	}
	if *crawls == "" {
		start, err := crawlDate(*crawl, *date)
		if err != nil {
			fail(err)
		}
		g := &gen{rng: rand.New(rand.NewPCG(*seed, *seed^0x9e3779b97f4a7c15)), bodies: bodies, level: *level, crawl: *crawl, date: start}
		if err := g.crawlFiles(filepath.Join(*out, "robotstxt"), *n, *perFile); err != nil {
			fail(err)
		}
		return
	}
	if *date != "" {
		fail(fmt.Errorf("-date is for one -crawl; with -crawls each crawl is dated by its name"))
	}
	names := strings.Split(*crawls, ",")
	pop := population(bodies, *n, *seed, len(names), *churn)
	for k, name := range names {
		start, err := crawlDate(name, "")
		if err != nil {
			fail(err)
		}
		s := *seed + uint64(k)*0x632be59bd9b4e019
		g := &gen{rng: rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15)), bodies: bodies, level: *level, crawl: name, date: start, sites: pop[k]}
		if err := g.crawlFiles(filepath.Join(*out, "crawl-data", name, "robotstxt"), *n, *perFile); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gencorpus:", err)
	os.Exit(1)
}

// crawlDate checks a crawl name and returns the start of its crawl: day
// (YYYY-MM-DD) when given, else the Monday of the name's ISO week, as
// robotstat dates a crawl by its name.
func crawlDate(crawl, day string) (time.Time, error) {
	var year, week int
	if len(crawl) != len("CC-MAIN-2024-22") || !strings.HasPrefix(crawl, "CC-MAIN-") {
		return time.Time{}, fmt.Errorf("crawl %q: want CC-MAIN-YYYY-WW", crawl)
	}
	if _, err := fmt.Sscanf(crawl[len("CC-MAIN-"):], "%4d-%2d", &year, &week); err != nil || week < 1 || week > 53 {
		return time.Time{}, fmt.Errorf("crawl %q: want CC-MAIN-YYYY-WW", crawl)
	}
	if day != "" {
		return time.Parse("2006-01-02", day)
	}
	// January 4th is in ISO week 1.
	jan4 := time.Date(year, 1, 4, 0, 0, 0, 0, time.UTC)
	monday := jan4.AddDate(0, 0, -((int(jan4.Weekday()) + 6) % 7))
	return monday.AddDate(0, 0, 7*(week-1)), nil
}

// crawlFiles writes n captures into dir, perFile a WARC.
func (g *gen) crawlFiles(dir string, n, perFile int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var total, files int64
	stamp := g.date.Format("20060102150405") + "-" + g.date.Add(3*time.Hour).Format("20060102150405")
	for done, k := 0, 0; done < n; k++ {
		name := filepath.Join(dir, fmt.Sprintf("CC-MAIN-%s-%05d.warc.gz", stamp, k))
		c, size, err := g.file(name, min(perFile, n-done))
		if err != nil {
			return err
		}
		done += c
		total += size
		files++
	}
	fmt.Printf("wrote %d captures of %s in %d files, %.1f MB, under %s\n", n, g.crawl, files, float64(total)/1e6, dir)
	return nil
}

// site is one host's robots.txt in one crawl of a population: what pick
// and payload return for it instead of a fresh draw.
type site struct {
	host   string
	status int
	extra  string // a redirect's Location
	body   int    // index into bodies of a 200's body
}

// population draws n hosts and their robots.txt in each of crawls crawls:
// a host's file in a crawl is its file in the one before, drawn again
// with probability churn. Each host has its own random stream, so a host's
// history does not depend on the others'.
func population(bodies []body, n int, seed uint64, crawls int, churn float64) [][]site {
	out := make([][]site, crawls)
	for k := range out {
		out[k] = make([]site, n)
	}
	for i := range n {
		host := bodies[i%len(bodies)].host
		if i >= len(bodies) {
			host = "www" + strconv.Itoa(i+1) + "." + strings.TrimPrefix(host, "www.")
		}
		g := &gen{rng: rand.New(rand.NewPCG(seed, uint64(i)+1)), bodies: bodies}
		var s site
		for k := range crawls {
			if k == 0 || g.rng.Float64() < churn {
				_, s.status, s.extra = g.draw(host)
				s.host, s.body = host, g.bodyIndex()
			}
			out[k][i] = s
		}
	}
	return out
}

type body struct {
	host string
	data []byte
}

// loadBodies reads every file of the folder tree in name order.
func loadBodies(dir string) ([]body, error) {
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && !strings.HasSuffix(p, ".md") {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []body
	for _, p := range names {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		host := filepath.Base(p)
		for _, suf := range []string{"-robots.txt", ".robots.txt", ".txt"} {
			host = strings.TrimSuffix(host, suf)
		}
		if !strings.Contains(host, ".") {
			host += ".com"
		}
		out = append(out, body{strings.ToLower(host), b})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no robots.txt files under %s", dir)
	}
	return out, nil
}

type gen struct {
	rng    *rand.Rand
	bodies []body
	level  int
	crawl  string // the warcinfo's isPartOf
	date   time.Time
	seq    int
	zw     *gzip.Writer
	// sites, when set, are the hosts to write in order (population),
	// instead of hosts drawn at random; cur is the one being written.
	sites []site
	cur   *site
}

func (g *gen) uuid() string {
	a, b := g.rng.Uint64(), g.rng.Uint64()
	return fmt.Sprintf("<urn:uuid:%08x-%04x-4%03x-%04x-%012x>", a>>32, a>>16&0xffff, a&0xfff, 0x8000|b>>48&0x3fff, b&0xffffffffffff)
}

func digest(p []byte) string {
	s := sha1.Sum(p)
	return "sha1:" + base32.StdEncoding.EncodeToString(s[:])
}

// member writes one record as one gzip member.
func (g *gen) member(w *bufio.Writer, header string, block []byte) error {
	if g.zw == nil {
		zw, err := gzip.NewWriterLevel(w, g.level)
		if err != nil {
			return err
		}
		g.zw = zw
	} else {
		g.zw.Reset(w)
	}
	g.zw.Write([]byte(header))
	g.zw.Write([]byte("Content-Length: " + strconv.Itoa(len(block)) + "\r\n\r\n"))
	g.zw.Write(block)
	g.zw.Write([]byte("\r\n\r\n"))
	return g.zw.Close()
}

func (g *gen) file(name string, captures int) (int, int64, error) {
	f, err := os.Create(name)
	if err != nil {
		return 0, 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	info := g.uuid()
	fields := "isPartOf: " + g.crawl + "\r\npublisher: Common Crawl\r\ndescription: Wide crawl of the web for " + g.date.Format("January 2006") + "\r\n" +
		"operator: Common Crawl Admin (info@commoncrawl.org)\r\nhostname: ip-10-67-67-213.ec2.internal\r\n" +
		"software: Apache Nutch 1.20 (modified, https://github.com/commoncrawl/nutch/)\r\n" +
		"robots: checked via crawler-commons 1.5-SNAPSHOT (https://github.com/crawler-commons/crawler-commons)\r\n" +
		"format: WARC File Format 1.1\r\nconformsTo: https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n"
	hdr := "WARC/1.0\r\nWARC-Type: warcinfo\r\nWARC-Date: " + g.date.Format(time.RFC3339) + "\r\nWARC-Filename: " + filepath.Base(name) +
		"\r\nWARC-Record-ID: " + g.uuid() + "\r\nContent-Type: application/warc-fields\r\n"
	if err := g.member(w, hdr, []byte(fields)); err != nil {
		return 0, 0, err
	}
	done := 0
	for done < captures {
		host, status, extra := g.pick()
		url := "https://" + host + "/robots.txt"
		if g.rng.IntN(5) == 0 {
			url = "http://" + host + "/robots.txt"
		}
		if err := g.pair(w, info, url, status, extra); err != nil {
			return 0, 0, err
		}
		done++
		// Common Crawl fetches redirect targets and stores them too.
		if status >= 300 && status < 400 && done < captures && g.rng.IntN(2) == 0 {
			if err := g.pair(w, info, extra, 200, ""); err != nil {
				return 0, 0, err
			}
			done++
		}
	}
	if err := w.Flush(); err != nil {
		return 0, 0, err
	}
	st, _ := f.Stat()
	return done, st.Size(), f.Close()
}

// pick draws a host and a status; extra is the Location of a redirect.
func (g *gen) pick() (host string, status int, extra string) {
	g.seq++
	if g.sites != nil {
		g.cur = &g.sites[g.seq-1]
		return g.cur.host, g.cur.status, g.cur.extra
	}
	b := g.bodies[g.rng.IntN(len(g.bodies))]
	host = b.host
	if g.seq > len(g.bodies) {
		host = "www" + strconv.Itoa(g.seq) + "." + strings.TrimPrefix(host, "www.")
	}
	return g.draw(host)
}

// draw draws a status for host; extra is the Location of a redirect.
func (g *gen) draw(host string) (_ string, status int, extra string) {
	r := g.rng.IntN(1000)
	switch {
	case r < 720:
		status = 200
	case r < 880:
		status = 404
	case r < 940:
		status = []int{301, 302, 307, 308, 301, 301}[g.rng.IntN(6)]
		switch g.rng.IntN(4) {
		case 0:
			extra = "https://" + host + "/"
		default:
			extra = "https://www." + strings.TrimPrefix(host, "www.") + "/robots.txt"
		}
	case r < 970:
		status = 403
	case r < 990:
		status = []int{500, 502, 503, 504}[g.rng.IntN(4)]
	default:
		status = []int{410, 401, 429, 400}[g.rng.IntN(4)]
	}
	return host, status, extra
}

// bodyIndex draws a 200's body.
func (g *gen) bodyIndex() int {
	for {
		i := g.rng.IntN(len(g.bodies))
		// Large files are real but rare in crawls: keep one in ten.
		if len(g.bodies[i].data) > 100<<10 && g.rng.IntN(10) != 0 {
			continue
		}
		return i
	}
}

var reasons = map[int]string{200: "OK", 301: "Moved Permanently", 302: "Found", 307: "Temporary Redirect", 308: "Permanent Redirect",
	400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 410: "Gone", 429: "Too Many Requests",
	500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"}

var servers = []string{"nginx", "Apache", "cloudflare", "Microsoft-IIS/10.0", "AmazonS3", "LiteSpeed", "openresty"}

// payload returns the stored (decoded) body and its content type.
func (g *gen) payload(host string, status int) ([]byte, string) {
	if status == 200 {
		if c := g.cur; c != nil && c.host == host && c.status == 200 {
			return g.bodies[c.body].data, "text/plain"
		}
		return g.bodies[g.bodyIndex()].data, "text/plain"
	}
	page := "<!DOCTYPE html>\n<html><head><title>" + strconv.Itoa(status) + " " + reasons[status] + "</title></head>\n<body>\n<h1>" +
		reasons[status] + "</h1>\n<p>The requested URL /robots.txt was not found on this server.</p>\n" +
		strings.Repeat("<!-- padding to look like a real error page -->\n", g.rng.IntN(30)) + "<hr><address>" + host + "</address>\n</body></html>\n"
	return []byte(page), "text/html; charset=utf-8"
}

func (g *gen) pair(w *bufio.Writer, info, url string, status int, location string) error {
	g.date = g.date.Add(time.Duration(g.rng.IntN(400)) * time.Millisecond)
	date := g.date.Format(time.RFC3339)
	_, rest, _ := strings.Cut(url, "://")
	host, path, _ := strings.Cut(rest, "/")
	ip := fmt.Sprintf("%d.%d.%d.%d", 1+g.rng.IntN(222), g.rng.IntN(256), g.rng.IntN(256), 1+g.rng.IntN(254))
	reqID := g.uuid()
	req := "GET /" + path + " HTTP/1.1\r\nUser-Agent: CCBot/2.0 (https://commoncrawl.org/faq/)\r\n" +
		"Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\nAccept-Language: en-US,en;q=0.5\r\n" +
		"Accept-Encoding: br,gzip\r\nHost: " + host + "\r\nConnection: Keep-Alive\r\n\r\n"
	common := "WARC-Date: " + date + "\r\n"
	if err := g.member(w, "WARC/1.0\r\nWARC-Type: request\r\n"+common+"WARC-Record-ID: "+reqID+"\r\nContent-Type: application/http; msgtype=request\r\n"+
		"WARC-Warcinfo-ID: "+info+"\r\nWARC-IP-Address: "+ip+"\r\nWARC-Target-URI: "+url+"\r\n", []byte(req)); err != nil {
		return err
	}
	body, ctype := g.payload(host, status)
	var h strings.Builder
	h.WriteString("HTTP/1.1 " + strconv.Itoa(status) + " " + reasons[status] + "\r\n")
	h.WriteString("Date: " + g.date.Format(time.RFC1123) + "\r\nServer: " + servers[g.rng.IntN(len(servers))] + "\r\n")
	h.WriteString("Content-Type: " + ctype + "\r\n")
	if location != "" {
		h.WriteString("Location: " + location + "\r\n")
	}
	switch g.rng.IntN(4) {
	case 0, 1: // served gzip: Common Crawl stores it decoded and renames the headers
		h.WriteString("X-Crawler-Content-Encoding: gzip\r\nX-Crawler-Content-Length: " + strconv.Itoa(len(body)/3+20) + "\r\n")
	case 2:
		h.WriteString("X-Crawler-Transfer-Encoding: chunked\r\n")
	}
	h.WriteString("Vary: Accept-Encoding\r\nCache-Control: max-age=86400\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n")
	block := append([]byte(h.String()), body...)
	ident := "text/plain"
	if status != 200 {
		ident = "text/html"
	}
	return g.member(w, "WARC/1.0\r\nWARC-Type: response\r\n"+common+"WARC-Record-ID: "+g.uuid()+"\r\nContent-Type: application/http; msgtype=response\r\n"+
		"WARC-Warcinfo-ID: "+info+"\r\nWARC-Concurrent-To: "+reqID+"\r\nWARC-IP-Address: "+ip+"\r\nWARC-Target-URI: "+url+"\r\n"+
		"WARC-Payload-Digest: "+digest(body)+"\r\nWARC-Block-Digest: "+digest(block)+"\r\nWARC-Identified-Payload-Type: "+ident+"\r\n", block)
}

// defaultRobots is the shared corpus beside the checkout, or, in a clone
// without it, the 18 attributed files the repository carries.
func defaultRobots() string {
	if st, err := os.Stat("../shared/corpus/robots"); err == nil && st.IsDir() {
		return "../shared/corpus/robots"
	}
	return "testdata/avuim"
}
