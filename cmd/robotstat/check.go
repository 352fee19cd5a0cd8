package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/robotstat/robotstat/explain"
	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/stats"
)

func init() {
	register(command{name: "check", summary: "decide whether an agent may fetch URLs under one robots.txt", run: (*Main).check,
		exits: []int{ExitOK, ExitDisallowed, ExitUsage}})
}

type checkFlags struct {
	explain   bool
	json      bool
	status    int
	batch     bool
	limit     int
	google429 bool
}

func (m *Main) check(ctx context.Context, args []string) error {
	fs := newFlagSet("check")
	var f checkFlags
	fs.BoolVar(&f.explain, "explain", false, "say which rule and group decided each URL")
	fs.IntVar(&f.status, "status", 200, "HTTP `status` the robots.txt was served with")
	fs.BoolVar(&f.batch, "batch", false, "read FILE<TAB>AGENT<TAB>URL lines from stdin")
	fs.BoolVar(&f.json, "json", false, "print one JSON object a line per decision (fields in --help)")
	fs.IntVar(&f.limit, "parse-limit", parse.DefaultLimit, "parse at most this many `bytes` of a file (RFC 9309 §2.5 minimum 512000; -1 for no limit)")
	fs.BoolVar(&f.google429, "429-unreachable", false, "treat status 429 like 5xx, as Google does (RFC 9309 says 4xx)")
	pos, err := parseFlags(fs, args, m.Stdout, checkUsage)
	if err != nil {
		if errors.Is(err, errHelp) {
			return nil
		}
		return err
	}
	opts := parse.Options{Limit: f.limit}
	if err := opts.Validate(); err != nil {
		return usageErrorf("check", "--parse-limit: %v", err)
	}
	if f.batch {
		if len(pos) != 0 {
			return usageErrorf("check", "--batch takes no arguments; it reads FILE<TAB>AGENT<TAB>URL lines from stdin")
		}
		return m.checkBatch(ctx, opts, f)
	}
	if len(pos) < 3 {
		return usageErrorf("check", "need ROBOTS_FILE AGENT URL..., got %d argument(s)", len(pos))
	}
	outcome, err := explain.CheckStatus(f.status, parse.StatusOptions{TooManyRequestsUnreachable: f.google429})
	if err != nil {
		return usageErrorf("check", "--%v", err)
	}
	file, agent, urls := pos[0], pos[1], pos[2:]
	for _, u := range urls {
		if err := checkURL(u); err != nil {
			return usageErrorf("check", "%v", err)
		}
	}
	bots := catalogBots()
	token := m.noteAgent(agent, bots)
	var body []byte // a 4xx or 5xx answer's body is not read: no rules
	if outcome == parse.OutcomeParsed {
		if body, err = m.readRobots(file, opts); err != nil {
			return err
		}
	}
	var r parse.Robots
	parse.NewParser(opts).Compile(body, &r)
	r.SetOutcome(outcome)
	w := bufio.NewWriter(m.Stdout)
	writeJSONLine := jsonLines(w)
	any := false
	id, match := r.Lookup(token)
	for _, u := range urls {
		d := r.DecideSet(id, match, u)
		if !d.Allowed {
			any = true
		}
		if f.json {
			rec := newCheckRecord(file, agent, token, u, f.status, d)
			if f.explain {
				rec.Explain = explain.Decide(&r, agent, bots, u, f.status).Text
			}
			writeJSONLine(rec)
			continue
		}
		writeVerdict(w, &r, d, u, agent, bots, f)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing to stdout: %w", err)
	}
	if any {
		return silentExit(ExitDisallowed)
	}
	return nil
}

// checkURL refuses only what cannot be a URL or a path at all: one holding
// a control character (C0, a NUL included, or DEL), which RFC 3986 and the
// WHATWG URL standard both exclude and which no crawler sends. Everything
// else is answered as parse.Robots.Decide reads it (any scheme, a malformed
// escape kept as written, "" as "/", a relative reference against
// /robots.txt), as other parsers answer it. check and check --batch give the
// same message.
func checkURL(u string) error {
	for i := 0; i < len(u); i++ {
		if c := u[i]; c < 0x20 || c == 0x7F {
			return fmt.Errorf("%q is not a URL or a path: it holds the control character 0x%02X (byte %d)", u, c, i)
		}
	}
	return nil
}

// catalogBots are the embedded catalog's bots, for reading an agent that is
// a whole User-Agent header (explain.ReadAgent).
func catalogBots() []explain.Bot {
	var out []explain.Bot
	for _, b := range stats.DefaultCatalog().Bots() {
		out = append(out, explain.Bot{Token: b.Token, Operator: b.Operator, Category: b.Category})
	}
	return out
}

// noteAgent returns the token agent is read as (explain.ReadAgent) and tells
// the user how, when agent is not a bare product token.
func (m *Main) noteAgent(agent string, bots []explain.Bot) string {
	token, note := explain.ReadAgent(agent, bots)
	if note != "" {
		fmt.Fprintf(m.Stderr, "robotstat: note: %s\n", note)
	}
	return token
}

// readRobots reads at most limit+1 bytes of a robots.txt (the one extra byte
// tells the parser whether the limit cut a line).
func (m *Main) readRobots(name string, opts parse.Options) ([]byte, error) {
	var r io.Reader
	if name == "-" {
		r = m.Stdin
		name = "standard input"
	} else {
		f, err := m.openFile(name)
		if err != nil {
			return nil, fmt.Errorf("reading robots.txt: %w", err)
		}
		defer f.Close()
		r = f
	}
	if opts.Limit >= 0 {
		limit := opts.Limit
		if limit == 0 {
			limit = parse.DefaultLimit
		}
		r = io.LimitReader(r, int64(limit)+1)
	}
	body, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading robots.txt from %s: %w", name, err)
	}
	return body, nil
}

// checkRecord is one line of check --json: a decision, or with --batch a
// line that could not be decided (Verdict "error"). The fields are
// documented in checkUsage.
type checkRecord struct {
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

func newCheckRecord(file, agent, token, url string, status int, d parse.Decision) checkRecord {
	rec := checkRecord{File: file, Agent: agent, URL: url, Status: status, Verdict: "disallowed", Allowed: &d.Allowed,
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

// jsonLines is check --json's writer: one encoder for the run, each record
// one line of JSON, without HTML escaping (a URL's & stays &).
func jsonLines(w *bufio.Writer) func(checkRecord) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return func(rec checkRecord) {
		enc.Encode(rec) // a struct of strings and numbers: no error but the writer's, which Flush reports
	}
}

func writeVerdict(w *bufio.Writer, r *parse.Robots, d parse.Decision, url, agent string, bots []explain.Bot, f checkFlags) {
	if d.Allowed {
		w.WriteString("allowed ")
	} else {
		w.WriteString("disallowed ")
	}
	w.WriteString(url)
	if f.explain {
		// The explanation the tester's page shows, from the same package.
		w.WriteString("\t")
		w.WriteString(explain.Decide(r, agent, bots, url, f.status).Text)
	}
	w.WriteByte('\n')
}

// checkBatch serves --batch.
func (m *Main) checkBatch(ctx context.Context, opts parse.Options, f checkFlags) error {
	sc := bufio.NewScanner(m.Stdin)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	w := bufio.NewWriter(m.Stdout)
	writeJSONLine := jsonLines(w)
	p := parse.NewParser(opts)
	var r parse.Robots
	bots := catalogBots()
	lastAgent, lastToken, agentRead := "", "", false
	cur, curErr := "", error(nil)
	loaded := false
	disallowed, failed := false, false
	n := 0
	for sc.Scan() {
		n++
		if n%1024 == 0 && ctx.Err() != nil {
			w.Flush()
			return ctx.Err()
		}
		file, agent, url, ok := splitBatchLine(sc.Text())
		// lineErr reports a line not decided: on stderr, and as its
		// output line.
		lineErr := func(err error) {
			fmt.Fprintf(m.Stderr, "robotstat: stdin line %d: %v\n", n, err)
			failed = true
			if f.json {
				rec := checkRecord{Verdict: "error", InputLine: n, Error: err.Error()}
				if ok { // else the line is not FILE, AGENT and URL
					rec.File, rec.Agent, rec.URL = file, agent, url
				}
				writeJSONLine(rec)
				return
			}
			w.WriteString("error\n")
		}
		if !ok {
			lineErr(errors.New("want FILE<TAB>AGENT<TAB>URL"))
			continue
		}
		if err := checkURL(url); err != nil {
			lineErr(err)
			continue
		}
		if !loaded || file != cur {
			cur, loaded = file, true
			var body []byte
			body, curErr = m.readRobots(file, opts)
			if curErr == nil {
				p.Compile(body, &r)
			}
		}
		if curErr != nil {
			lineErr(curErr)
			continue
		}
		if !agentRead || agent != lastAgent {
			// The same reading as without --batch; notes would be one
			// per line, so there are none.
			lastAgent, agentRead = agent, true
			lastToken, _ = explain.ReadAgent(agent, bots)
		}
		d := r.Decide(lastToken, url)
		if !d.Allowed {
			disallowed = true
		}
		switch {
		case f.json:
			rec := newCheckRecord(file, agent, lastToken, url, 200, d)
			rec.InputLine = n
			writeJSONLine(rec)
		case d.Allowed:
			w.WriteString("allowed\n")
		default:
			w.WriteString("disallowed\n")
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing to stdout: %w", err)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading stdin line %s: %w", strconv.Itoa(n+1), err)
	}
	switch {
	case failed:
		return silentExit(ExitUsage)
	case disallowed:
		return silentExit(ExitDisallowed)
	}
	return nil
}

func splitBatchLine(s string) (file, agent, url string, ok bool) {
	s = strings.TrimSuffix(s, "\r")
	file, rest, ok1 := strings.Cut(s, "\t")
	agent, url, ok2 := strings.Cut(rest, "\t")
	return file, agent, url, ok1 && ok2 && file != ""
}
