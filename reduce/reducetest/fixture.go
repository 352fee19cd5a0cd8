// Package reducetest holds the sites fixture: a Common-Crawl-shaped crawl in
// two robotstxt WARC files with one host per rule of the site resolution
// (package reduce), and what the sites table must say of each. The WARCs
// are committed under testdata/sites (go run ./scripts/gensites
// writes them); reduce's TestFixtureFresh checks that they are what Write
// writes. WriteDataset writes the same fetches, or any others, as a dataset
// directly (captures and verdicts through the real Analyzer, no WARC), which
// is how package reduce tests each rule.
package reducetest

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
)

// Crawl is the fixture's crawl (its warcinfo's isPartOf).
const Crawl = "CC-MAIN-2025-05"

// Fetch is one capture of the fixture: a response to a GET of URL.
type Fetch struct {
	URL      string
	Status   int
	Location string // for a 3xx; may be relative
	Body     string
	Minute   int // fetched Minute minutes after the crawl's start
	File     int // 0 or 1: the WARC file it is in (WriteDataset: the run)
	// Undated leaves the fetch time unknown (a dump without one); only
	// WriteDataset reads it, a WARC record always has a WARC-Date.
	Undated bool
}

// Site is one host of the fixture and what its sites row must hold.
type Site struct {
	Host    string
	Rule    string // the rule the case shows
	Fetches []Fetch
	// Rank is the rank of the site's captures (analyze --sites); only
	// WriteDataset reads it.
	Rank int64
	// The sites row: outcome, redirect_hops (-1 for NULL), url,
	// final_url ("" for NULL), candidates, reason ("" for NULL), and
	// GPTBot's verdict in site_bots.
	Outcome    string
	Hops       int
	URL        string
	FinalURL   string
	Candidates int
	Reason     string
	GPTBot     string
}

const (
	blockGPTBot = "User-agent: GPTBot\nDisallow: /\n"
	allowAll    = "User-agent: *\nDisallow:\n"
	htmlHome    = "<!DOCTYPE html>\n<html><head><title>Home</title></head><body><h1>Welcome</h1></body></html>\n"
)

func robots(host string) string { return "https://" + host + "/robots.txt" }

// Sites are the cases, one host each.
var Sites = []Site{
	{Host: "http-to-https.example", Rule: "http redirects to https on the same host: both are candidates, https wins",
		Fetches: []Fetch{
			{URL: "http://http-to-https.example/robots.txt", Status: 301, Location: "https://http-to-https.example/robots.txt", Minute: 1},
			{URL: robots("http-to-https.example"), Status: 200, Body: blockGPTBot, Minute: 2},
		},
		Outcome: "parsed", Hops: 0, URL: robots("http-to-https.example"), FinalURL: robots("http-to-https.example"), Candidates: 2, GPTBot: "full"},
	{Host: "cross-host.example", Rule: "a redirect to another host's robots.txt is followed",
		Fetches: []Fetch{
			{URL: robots("cross-host.example"), Status: 301, Location: robots("cdn.other.example"), Minute: 3},
		},
		Outcome: "parsed", Hops: 1, URL: robots("cross-host.example"), FinalURL: robots("cdn.other.example"), Candidates: 1, GPTBot: "full"},
	{Host: "cdn.other.example", Rule: "the redirect target is a site of its own",
		Fetches: []Fetch{{URL: robots("cdn.other.example"), Status: 200, Body: blockGPTBot, Minute: 4}},
		Outcome: "parsed", Hops: 0, URL: robots("cdn.other.example"), FinalURL: robots("cdn.other.example"), Candidates: 1, GPTBot: "full"},
	{Host: "html-home.example", Rule: "a redirect to an HTML home page: a 2xx, parsed, no rules",
		Fetches: []Fetch{
			{URL: robots("html-home.example"), Status: 302, Location: "https://html-home.example/", Minute: 5},
			{URL: "https://html-home.example/", Status: 200, Body: htmlHome, Minute: 6},
		},
		Outcome: "parsed", Hops: 1, URL: robots("html-home.example"), FinalURL: "https://html-home.example/", Candidates: 1, GPTBot: "none"},
	{Host: "relative.example", Rule: "a relative Location is resolved against the URL",
		Fetches: []Fetch{
			{URL: robots("relative.example"), Status: 301, Location: "/new/robots.txt", Minute: 7},
			{URL: "https://relative.example/new/robots.txt", Status: 200, Body: blockGPTBot, Minute: 8},
		},
		Outcome: "parsed", Hops: 1, URL: robots("relative.example"), FinalURL: "https://relative.example/new/robots.txt", Candidates: 1, GPTBot: "full"},
	{Host: "loop.example", Rule: "a redirect loop reads as unavailable (RFC 9309 §2.3.1.2)",
		Fetches: []Fetch{
			{URL: robots("loop.example"), Status: 301, Location: "https://loop.example/a", Minute: 9},
			{URL: "https://loop.example/a", Status: 301, Location: robots("loop.example"), Minute: 10},
		},
		Outcome: "unavailable", Hops: -1, URL: robots("loop.example"), Candidates: 1, Reason: "redirect-limit", GPTBot: "none"},
	{Host: "five.example", Rule: "five redirects are followed",
		Fetches: chain("five.example", 5, 11),
		Outcome: "parsed", Hops: 5, URL: robots("five.example"), FinalURL: "https://five.example/r5", Candidates: 1, GPTBot: "full"},
	{Host: "six.example", Rule: "a sixth redirect is not: unavailable",
		Fetches: chain("six.example", 6, 20),
		Outcome: "unavailable", Hops: -1, URL: robots("six.example"), Candidates: 1, Reason: "redirect-limit", GPTBot: "none"},
	{Host: "never.example", Rule: "a redirect to a URL the crawl never captured is unresolved",
		Fetches: []Fetch{{URL: robots("never.example"), Status: 301, Location: "https://never.example/gone", Minute: 30}},
		Outcome: "unresolved", Hops: -1, URL: robots("never.example"), Candidates: 1, Reason: "not-captured", GPTBot: "unknown"},
	{Host: "no-location.example", Rule: "a 3xx without a Location is unresolved",
		Fetches: []Fetch{{URL: robots("no-location.example"), Status: 302, Minute: 31}},
		Outcome: "unresolved", Hops: -1, URL: robots("no-location.example"), Candidates: 1, Reason: "no-location", GPTBot: "unknown"},
	{Host: "503-then-200.example", Rule: "a 503 early in the crawl does not hide a 200 fetched later",
		Fetches: []Fetch{
			{URL: robots("503-then-200.example"), Status: 503, Minute: 32},
			{URL: robots("503-then-200.example"), Status: 200, Body: blockGPTBot, Minute: 90, File: 1},
		},
		Outcome: "parsed", Hops: 0, URL: robots("503-then-200.example"), FinalURL: robots("503-then-200.example"), Candidates: 2, GPTBot: "full"},
	{Host: "200-then-503.example", Rule: "nor a 503 later a 200 fetched earlier",
		Fetches: []Fetch{
			{URL: robots("200-then-503.example"), Status: 200, Body: blockGPTBot, Minute: 33},
			{URL: robots("200-then-503.example"), Status: 503, Minute: 91, File: 1},
		},
		Outcome: "parsed", Hops: 0, URL: robots("200-then-503.example"), FinalURL: robots("200-then-503.example"), Candidates: 2, GPTBot: "full"},
	{Host: "404-then-200.example", Rule: "parsed beats unavailable",
		Fetches: []Fetch{
			{URL: robots("404-then-200.example"), Status: 404, Body: htmlHome, Minute: 34},
			{URL: robots("404-then-200.example"), Status: 200, Body: blockGPTBot, Minute: 92, File: 1},
		},
		Outcome: "parsed", Hops: 0, URL: robots("404-then-200.example"), FinalURL: robots("404-then-200.example"), Candidates: 2, GPTBot: "full"},
	{Host: "two-200.example", Rule: "of two 200s, the later fetch answers",
		Fetches: []Fetch{
			{URL: robots("two-200.example"), Status: 200, Body: allowAll, Minute: 35},
			{URL: robots("two-200.example"), Status: 200, Body: blockGPTBot, Minute: 93, File: 1},
		},
		Outcome: "parsed", Hops: 0, URL: robots("two-200.example"), FinalURL: robots("two-200.example"), Candidates: 2, GPTBot: "full"},
	{Host: "http-https.example", Rule: "http and https disagree: https answers, even fetched earlier",
		Fetches: []Fetch{
			{URL: "http://http-https.example/robots.txt", Status: 200, Body: allowAll, Minute: 94, File: 1},
			{URL: robots("http-https.example"), Status: 200, Body: blockGPTBot, Minute: 36},
		},
		Outcome: "parsed", Hops: 0, URL: robots("http-https.example"), FinalURL: robots("http-https.example"), Candidates: 2, GPTBot: "full"},
	{Host: "only-5xx.example", Rule: "5xx only: unreachable, everything disallowed",
		Fetches: []Fetch{
			{URL: robots("only-5xx.example"), Status: 503, Minute: 37},
			{URL: robots("only-5xx.example"), Status: 500, Minute: 95, File: 1},
		},
		Outcome: "unreachable", Hops: 0, URL: robots("only-5xx.example"), FinalURL: robots("only-5xx.example"), Candidates: 2, GPTBot: "full"},
	{Host: "rate-limited.example", Rule: "429 is a 4xx (RFC 9309), unless --429-unreachable",
		Fetches: []Fetch{{URL: robots("rate-limited.example"), Status: 429, Minute: 38}},
		Outcome: "unavailable", Hops: 0, URL: robots("rate-limited.example"), FinalURL: robots("rate-limited.example"), Candidates: 1, GPTBot: "none"},
}

// chain returns n redirects from host's robots.txt through /r1 ... /rn,
// the last URL answering 200.
func chain(host string, n, minute int) []Fetch {
	var out []Fetch
	from := robots(host)
	for i := 1; i <= n; i++ {
		to := "https://" + host + "/r" + strconv.Itoa(i)
		out = append(out, Fetch{URL: from, Status: 301, Location: to, Minute: minute + i})
		from = to
	}
	return append(out, Fetch{URL: from, Status: 200, Body: blockGPTBot, Minute: minute + n + 1})
}

// Files are the fixture's WARC file names, by Fetch.File.
var Files = [2]string{
	"CC-MAIN-20250115000000-20250115030000-00000.robotstxt.warc.gz",
	"CC-MAIN-20250115000000-20250115030000-00001.robotstxt.warc.gz",
}

var start = time.Date(2025, 1, 15, 0, 0, 0, 0, time.UTC)

var reasons = map[int]string{200: "OK", 301: "Moved Permanently", 302: "Found", 404: "Not Found", 429: "Too Many Requests", 500: "Internal Server Error", 503: "Service Unavailable"}

// Write writes the fixture's WARC files into dir: warcinfo, then a request
// and a response record per fetch, one gzip member per record, record ids
// derived from the fetch so the files are the same on every run.
func Write(dir string) error {
	for fi, name := range Files {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		w := bufio.NewWriter(f)
		zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
		member := func(header string, block []byte) error {
			zw.Reset(w)
			fmt.Fprintf(zw, "%sContent-Length: %d\r\n\r\n", header, len(block))
			zw.Write(block)
			zw.Write([]byte("\r\n\r\n"))
			return zw.Close()
		}
		info := "isPartOf: " + Crawl + "\r\npublisher: robotstat test fixture\r\nformat: WARC File Format 1.1\r\n"
		if err := member("WARC/1.1\r\nWARC-Type: warcinfo\r\nWARC-Date: "+start.Format(time.RFC3339)+"\r\nWARC-Record-ID: "+id("info", name)+
			"\r\nContent-Type: application/warc-fields\r\n", []byte(info)); err != nil {
			return err
		}
		for _, s := range Sites {
			for k, fe := range s.Fetches {
				if fe.File != fi {
					continue
				}
				date := start.Add(time.Duration(fe.Minute) * time.Minute).Format(time.RFC3339)
				_, rest, _ := strings.Cut(fe.URL, "://")
				host, path, _ := strings.Cut(rest, "/")
				reqID := id("request", s.Host, strconv.Itoa(k))
				req := "GET /" + path + " HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: CCBot/2.0 (https://commoncrawl.org/faq/)\r\n\r\n"
				if err := member("WARC/1.1\r\nWARC-Type: request\r\nWARC-Date: "+date+"\r\nWARC-Record-ID: "+reqID+
					"\r\nContent-Type: application/http; msgtype=request\r\nWARC-Target-URI: "+fe.URL+"\r\n", []byte(req)); err != nil {
					return err
				}
				var h strings.Builder
				fmt.Fprintf(&h, "HTTP/1.1 %d %s\r\n", fe.Status, reasons[fe.Status])
				ctype := "text/plain"
				if strings.HasPrefix(fe.Body, "<!DOCTYPE") {
					ctype = "text/html"
				}
				fmt.Fprintf(&h, "Content-Type: %s\r\n", ctype)
				if fe.Location != "" {
					fmt.Fprintf(&h, "Location: %s\r\n", fe.Location)
				}
				fmt.Fprintf(&h, "Content-Length: %d\r\n\r\n", len(fe.Body))
				block := append([]byte(h.String()), fe.Body...)
				if err := member("WARC/1.1\r\nWARC-Type: response\r\nWARC-Date: "+date+"\r\nWARC-Record-ID: "+id("response", s.Host, strconv.Itoa(k))+
					"\r\nContent-Type: application/http; msgtype=response\r\nWARC-Concurrent-To: "+reqID+
					"\r\nWARC-Target-URI: "+fe.URL+"\r\n", block); err != nil {
					return err
				}
			}
		}
		if err := w.Flush(); err != nil {
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}

// id returns a deterministic WARC-Record-ID for the parts.
func id(parts ...string) string {
	s := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", s[0:4], s[4:6], s[6:8], s[8:10], s[10:16])
}
