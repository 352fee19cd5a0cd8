// Package check answers what robotstat check answers, for Go callers: may
// an agent fetch these URLs under one robots.txt (WriteDecisions), and the
// same for a stream of FILE<TAB>AGENT<TAB>URL lines (Batch), written as
// one word a line or as JSON lines (Record). Decisions are always
// parse.Robots's, explanations package explain's; this package only reads
// the inputs and writes the answers.
//
// It is not part of the tester's WebAssembly module (package explain is):
// it reads files and encodes JSON.
package check

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/robotstat/robotstat/explain"
	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/stats"
)

// Bots are the bots of cat for which keep (nil: every bot) holds of its
// category, as explain reads an agent against them (explain.ReadAgent)
// and the tester's page lists them.
func Bots(cat *stats.Catalog, keep func(category string) bool) []explain.Bot {
	var out []explain.Bot
	for _, b := range cat.Bots() {
		if keep == nil || keep(b.Category) {
			out = append(out, explain.Bot{Token: b.Token, Operator: b.Operator, Category: b.Category})
		}
	}
	return out
}

// ValidURL refuses only what cannot be a URL or a path at all: one holding
// a control character (C0, a NUL included, or DEL), which RFC 3986 and the
// WHATWG URL standard both exclude and which no crawler sends. Everything
// else is answered as parse.Robots.Decide reads it (any scheme, a malformed
// escape kept as written, "" as "/", a relative reference against
// /robots.txt), as other parsers answer it. check and check --batch give the
// same message.
func ValidURL(u string) error {
	for i := 0; i < len(u); i++ {
		if c := u[i]; c < 0x20 || c == 0x7F {
			return fmt.Errorf("%q is not a URL or a path: it holds the control character 0x%02X (byte %d)", u, c, i)
		}
	}
	return nil
}

// ReadBody reads a robots.txt from r: at most o's limit + 1 bytes (the one
// extra byte tells the parser whether the limit cut a line), all of it
// with no limit (-1).
func ReadBody(r io.Reader, o parse.Options) ([]byte, error) {
	if o.Limit >= 0 {
		limit := o.Limit
		if limit == 0 {
			limit = parse.DefaultLimit
		}
		r = io.LimitReader(r, int64(limit)+1)
	}
	return io.ReadAll(r)
}

// Record is one line of robotstat check --json: a decision, or with
// --batch a line that could not be decided (Verdict "error"). Its fields
// are documented in robotstat check --help. A plain value.
type Record struct {
	File      string `json:"file"`
	Agent     string `json:"agent"`
	URL       string `json:"url"`
	Token     string `json:"token"`
	Status    int    `json:"status,omitempty"`
	Verdict   string `json:"verdict"`
	Allowed   *bool  `json:"allowed,omitempty"`
	Reason    string `json:"reason,omitempty"`
	Match     string `json:"match,omitempty"`
	RuleLine  int    `json:"rule_line,omitempty"`
	Rule      string `json:"rule,omitempty"`
	Explain   string `json:"explain,omitempty"`
	InputLine int    `json:"input_line,omitempty"`
	Error     string `json:"error,omitempty"`
}

// NewRecord is the record of decision d on url for agent (read as token)
// under file, served with status.
func NewRecord(file, agent, token, url string, status int, d parse.Decision) Record {
	rec := Record{File: file, Agent: agent, URL: url, Status: status, Verdict: "disallowed", Allowed: &d.Allowed,
		Token:  string(parse.AppendLowerToken(nil, parse.ProductToken([]byte(token)))),
		Reason: d.Reason.String(), Match: d.Match.String()}
	if d.Allowed {
		rec.Verdict = "allowed"
	}
	if d.Rule != nil {
		rec.RuleLine = d.Rule.Line
		rec.Rule = d.Rule.Directive.String() + ": " + string(d.Rule.Raw)
	}
	return rec
}

// jsonLines returns a writer of records to w, one line of JSON each,
// through one encoder, without HTML escaping (a URL's & stays &). Its
// only error would be w's, which the caller's Flush reports.
func jsonLines(w io.Writer) func(Record) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return func(rec Record) { enc.Encode(rec) }
}

// Query is what robotstat check asks without --batch: may Agent, read as
// Token (explain.ReadAgent), fetch each of URLs under the robots.txt File,
// served with Status. URLs must be valid (ValidURL). A plain value.
type Query struct {
	File, Agent, Token string
	Status             int
	URLs               []string
}

// Output says how answers are written: JSON lines (Record), or a word and
// the URL a line; Explain adds explain.Decide's text (explained for
// Bots, the catalog an agent is read against). A plain value.
type Output struct {
	JSON, Explain bool
	Bots          []explain.Bot
}

// WriteDecisions decides q's URLs under r, whose outcome is set, and
// writes one line each to w, in order; it reports whether any was
// disallowed. Write errors are w's, for the caller's Flush.
func WriteDecisions(w *bufio.Writer, r *parse.Robots, q Query, o Output) (disallowed bool) {
	writeJSON := jsonLines(w)
	id, match := r.Lookup(q.Token)
	for _, u := range q.URLs {
		d := r.DecideSet(id, match, u)
		disallowed = disallowed || !d.Allowed
		why := ""
		if o.Explain {
			// The explanation the tester's page shows, from the same package.
			why = explain.Decide(r, q.Agent, o.Bots, u, q.Status).Text
		}
		if o.JSON {
			rec := NewRecord(q.File, q.Agent, q.Token, u, q.Status, d)
			rec.Explain = why
			writeJSON(rec)
			continue
		}
		if d.Allowed {
			w.WriteString("allowed ")
		} else {
			w.WriteString("disallowed ")
		}
		w.WriteString(u)
		if o.Explain {
			w.WriteString("\t")
			w.WriteString(why)
		}
		w.WriteByte('\n')
	}
	return disallowed
}
