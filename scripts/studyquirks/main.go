// Command studyquirks counts how many captures hit each parser quirk of the
// three studies whose definitions the bots table reproduces (stats/VERDICTS.md,
// "The studies' parsers, quirk by quirk"), where the Parquet output cannot
// tell: the quirks that depend on how a line is spelled (key case, a space
// before the colon, an inline comment, a second colon), which robotstat's
// tables normalise away.
//
// It reads the same inputs as robotstat analyze (default: the embedded
// sample), looks only at captures RFC 9309 parses (2xx or no status), and
// writes one CSV row per capture and quirk it hits, with the first line
// concerned:
//
//	url,quirk,line
//
// The url column joins to every table's url, so DuckDB can ask what a quirk
// does to the verdicts:
//
//	go run ./scripts/studyquirks > /tmp/quirks.csv
//	go run ./scripts/studyquirks /work/shared/corpus/robots/avuim-2025 > /tmp/quirks-corpus.csv
//
// A per-quirk count of captures goes to stderr. The detection is written from
// the studies' documented behaviour (VERDICTS.md cites the code read), not
// ported from their code: each check asks whether a line the RFC reading uses
// is one the study's code would read differently.
package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"
	"sync"

	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/record"
)

// The quirks, by the name the CSV uses. VERDICTS.md explains each one.
const (
	// Consent in Crisis, paper-era parse_robots.py.
	cicKeySpelling  = "cic-key-spelling"   // a user-agent/allow/disallow key not spelled User-agent:, Allow:, Disallow:
	cicUserAgentCap = "cic-key-User-Agent" // of those, the spelling User-Agent: (capital A)
	cicBOMFirstUA   = "cic-bom-first-ua"   // a BOM in front of a first user-agent line
	cicUAComment    = "cic-ua-comment"     // a user-agent line with a comment after the value
	cicRuleComment  = "cic-rule-comment"   // an allow/disallow line with a comment after the value
	cicSeparator    = "cic-separator"      // a rule after a blank or comment line inside its group
	cicSeenStack    = "cic-seen-stack"     // a stack of user-agent lines after a rule, crawl-delay or sitemap line
	// Google's reference parser, which decides Somesite's paths.
	googleRunBreak = "google-run-break" // a user-agent line after another record (sitemap, crawl-delay, ...) in a stack
	// Common Crawl, robotstxt_statistics.py.
	ccHTMLFirstLine = "cc-html-first-line" // first line starts with <html or <!DOCTYPE html
	// Common Crawl and Somesite both split lines at LF only.
	loneCR = "lone-cr" // a line ended by a CR alone, which LF-only splitting joins to the next
	// Somesite I Used To Crawl, robots_analysis_final.py.
	ssSpaceColon   = "ss-space-before-colon" // allow/disallow key followed by white space before its colon
	ssMissingColon = "ss-missing-colon"      // an allow/disallow rule without a colon, which robotstat accepts
	ssSecondColon  = "ss-second-colon"       // "allow:" with no space after it and a colon in the value
)

func main() {
	crawl := flag.String("crawl", "", "crawl name for inputs that have none (as analyze --crawl)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: studyquirks [--crawl NAME] [INPUT...]   (default: the embedded sample)")
		flag.PrintDefaults()
	}
	flag.Parse()
	inputs := flag.Args()
	if len(inputs) == 0 {
		inputs = []string{"internal/sample/robotstat-sample.warc.gz"}
	}
	if err := run(*crawl, inputs); err != nil {
		fmt.Fprintln(os.Stderr, "studyquirks:", err)
		os.Exit(2)
	}
}

type hit struct {
	url, quirk string
	line       int
}

func run(crawl string, inputs []string) error {
	var (
		mu   sync.Mutex
		hits []hit
	)
	cfg := pipeline.Config{Workers: 1, Crawl: crawl}
	_, err := pipeline.Run(context.Background(), cfg, inputs, func(_ int, c *record.Capture) error {
		if parse.StatusOutcome(c.Status, parse.StatusOptions{}) != parse.OutcomeParsed {
			return nil
		}
		found := scan(c.Body)
		mu.Lock()
		for q, line := range found {
			hits = append(hits, hit{c.URL, q, line})
		}
		mu.Unlock()
		return nil
	})
	if err != nil {
		return err
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].quirk != hits[j].quirk {
			return hits[i].quirk < hits[j].quirk
		}
		return hits[i].url < hits[j].url
	})
	w := csv.NewWriter(os.Stdout)
	w.Write([]string{"url", "quirk", "line"})
	counts := map[string]int{}
	for _, h := range hits {
		w.Write([]string{h.url, h.quirk, strconv.Itoa(h.line)})
		counts[h.quirk]++
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return fmt.Errorf("writing the CSV: %w", err)
	}
	names := make([]string, 0, len(counts))
	for q := range counts {
		names = append(names, q)
	}
	sort.Strings(names)
	for _, q := range names {
		fmt.Fprintf(os.Stderr, "%-24s %d captures\n", q, counts[q])
	}
	return nil
}

var bom = []byte("\xef\xbb\xbf")

// scan returns, for each quirk the body hits, the first line (from 1) it
// hits on. Lines are split as RFC 9309 does (LF, CRLF or a lone CR), so the
// line numbers are those of the rules and diagnostics tables.
func scan(body []byte) map[string]int {
	found := map[string]int{}
	mark := func(q string, line int) {
		if _, ok := found[q]; !ok {
			found[q] = line
		}
	}
	if first, _, _ := bytes.Cut(bytes.TrimPrefix(body, bom), []byte("\n")); startsWord(first, "<html") || startsWord(first, "<!doctype html") {
		mark(ccHTMLFirstLine, 1)
	}
	if i := loneCRLine(body); i > 0 {
		mark(loneCR, i)
	}
	var (
		inGroup     bool // inside an RFC 9309 group: a user-agent line has been seen
		ruleInGroup bool // the current group has a rule, so the next user-agent line starts a new group
		sepInGroup  bool // a blank or comment line since the current group's first user-agent line
		uaInGroup   int  // user-agent lines so far in the current group
		otherInRun  bool // a record other than user-agent or a rule since the current group's first user-agent line
		seen        bool // a rule, crawl-delay or sitemap line has been seen
	)
	for n, line := range splitLines(body) {
		lineNo := n + 1
		hadBOM := false
		if n == 0 && bytes.HasPrefix(line, bom) {
			line, hadBOM = line[len(bom):], true
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '#' {
			if inGroup {
				sepInGroup = true
			}
			continue
		}
		rawKey, value, colon := bytes.Cut(t, []byte(":"))
		key := string(bytes.ToLower(bytes.TrimSpace(rawKey)))
		if !colon {
			// robotstat reads "Disallow /x" (two words, a known key) as a rule.
			if f := bytes.Fields(t); len(f) == 2 {
				if k := string(bytes.ToLower(f[0])); k == "allow" || k == "disallow" {
					mark(ssMissingColon, lineNo)
				}
			}
			continue
		}
		switch key {
		case "user-agent", "allow", "disallow":
		default:
			if inGroup && !ruleInGroup {
				otherInRun = true
			}
			if key == "crawl-delay" || key == "sitemap" {
				seen = true
			}
			continue
		}
		spelled := map[string]string{"user-agent": "User-agent:", "allow": "Allow:", "disallow": "Disallow:"}[key]
		if hadBOM && key == "user-agent" {
			mark(cicBOMFirstUA, lineNo)
		} else if !bytes.HasPrefix(t, []byte(spelled)) {
			mark(cicKeySpelling, lineNo)
			if bytes.HasPrefix(t, []byte("User-Agent:")) {
				mark(cicUserAgentCap, lineNo)
			}
		}
		if hash := bytes.IndexByte(value, '#'); hash >= 0 && len(bytes.TrimSpace(value[:hash])) > 0 {
			if key == "user-agent" {
				mark(cicUAComment, lineNo)
			} else {
				mark(cicRuleComment, lineNo)
			}
		}
		if key == "user-agent" {
			if ruleInGroup || !inGroup {
				inGroup, sepInGroup, ruleInGroup, otherInRun, uaInGroup = true, false, false, false, 0
			} else if otherInRun {
				mark(googleRunBreak, lineNo)
			}
			if seen && uaInGroup > 0 {
				mark(cicSeenStack, lineNo)
			}
			uaInGroup++
			continue
		}
		// An allow or disallow line.
		if inGroup {
			ruleInGroup = true
			if sepInGroup {
				mark(cicSeparator, lineNo)
			}
		}
		seen = true
		if last := rawKey[len(rawKey)-1]; last == ' ' || last == '\t' {
			// Neither "allow: " nor "allow:" occurs in the line.
			mark(ssSpaceColon, lineNo)
		} else if !bytes.Contains(bytes.ToLower(t), []byte("allow: ")) && bytes.Contains(value, []byte(":")) {
			// Read as line.split(":")[1]: the value up to its first colon.
			mark(ssSecondColon, lineNo)
		}
	}
	return found
}

// splitLines splits at LF, CRLF and a lone CR (RFC 9309 §2.2 EOL).
func splitLines(b []byte) [][]byte {
	var lines [][]byte
	for len(b) > 0 {
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			lines = append(lines, b)
			break
		}
		lines = append(lines, b[:i])
		if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
			i++
		}
		b = b[i+1:]
	}
	return lines
}

// loneCRLine returns the number (from 1) of the first line a CR not
// followed by LF ends, or 0. A CRLF is counted at its LF.
func loneCRLine(b []byte) int {
	line := 1
	for i, c := range b {
		switch {
		case c == '\n':
			line++
		case c == '\r' && (i+1 == len(b) || b[i+1] != '\n'):
			return line
		}
	}
	return 0
}

// startsWord reports whether b starts with word, case-insensitively, and the
// word ends there (a regexp \b: no letter, digit or _ follows).
func startsWord(b []byte, word string) bool {
	if len(b) < len(word) || !bytes.EqualFold(b[:len(word)], []byte(word)) {
		return false
	}
	if len(b) == len(word) {
		return true
	}
	c := b[len(word)]
	return !(c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z')
}
