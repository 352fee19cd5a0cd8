package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/robotstat/robotstat/explain"
	"github.com/robotstat/robotstat/parse"
)

func init() {
	register(command{name: "check", summary: "decide whether an agent may fetch URLs under one robots.txt", run: (*Main).check,
		exits: []int{ExitOK, ExitDisallowed, ExitUsage}})
}

const checkUsage = `Usage:
  robotstat check [--explain] [--status CODE] ROBOTS_FILE AGENT URL...
  robotstat check --batch < LINES

Decides, per RFC 9309, whether AGENT may fetch each URL under the rules in
ROBOTS_FILE ("-" reads standard input). Prints one line per URL whose first
word is "allowed" or "disallowed", then the URL; --explain adds the deciding
line, directive and pattern and the group's user agents, or why nothing
matched.

AGENT is the crawler's product token, e.g. GPTBot. Only its leading letters,
"_" and "-" are used (RFC 9309 §2.2.1), case-insensitively: "GPTBot/1.1" is
read as GPTBot, and a whole User-Agent header such as
"Mozilla/5.0 (compatible; GPTBot/1.1)" is read as Mozilla, so pass the token.
A note goes to stderr whenever AGENT is not a bare token.

URL is an absolute URL (scheme and host are ignored) or a path starting with
"/". The path and query are matched; the fragment is dropped.

--status CODE is the HTTP status the robots.txt was served with (RFC 9309
§2.3.1): 2xx parses the file; 4xx means unavailable, everything allowed;
5xx means unreachable, everything disallowed. A 3xx must be followed by the
crawler, so check refuses it.

--batch reads ROBOTS_FILE<TAB>AGENT<TAB>URL lines from standard input and
prints one word per line, in order: allowed, disallowed, or error (with the
reason on stderr). Each file is parsed once while consecutive lines name it.
`

type checkFlags struct {
	explain   bool
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
	m.noteAgent(agent)
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
	any := false
	id, match := r.Lookup(agent)
	for _, u := range urls {
		d := r.DecideSet(id, match, u)
		if !d.Allowed {
			any = true
		}
		writeVerdict(w, &r, d, u, agent, f)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing to stdout: %w", err)
	}
	if any {
		return silentExit(ExitDisallowed)
	}
	return nil
}

// checkURL accepts what check decides: an absolute http(s) URL with a host,
// or a path starting with "/" (RFC 9309 §2.2.2 matches paths). Anything else
// ("foo", "example.com/x") would be read as some path by accident.
func checkURL(u string) error {
	if strings.HasPrefix(u, "/") {
		return nil
	}
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return fmt.Errorf("%q is not a URL: give an absolute http(s) URL (https://example.com/a) or a path starting with / (/a)", u)
	}
	return nil
}

// noteAgent tells the user how an agent that is not a bare product token is
// read.
func (m *Main) noteAgent(agent string) {
	if note := explain.AgentNote(agent); note != "" {
		fmt.Fprintf(m.Stderr, "robotstat: note: %s\n", note)
	}
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

func writeVerdict(w *bufio.Writer, r *parse.Robots, d parse.Decision, url, agent string, f checkFlags) {
	if d.Allowed {
		w.WriteString("allowed ")
	} else {
		w.WriteString("disallowed ")
	}
	w.WriteString(url)
	if f.explain {
		// The explanation the tester's page shows, from the same package.
		w.WriteString("\t")
		w.WriteString(explain.Decide(r, agent, url, f.status).Text)
	}
	w.WriteByte('\n')
}

// checkBatch serves --batch.
func (m *Main) checkBatch(ctx context.Context, opts parse.Options, f checkFlags) error {
	sc := bufio.NewScanner(m.Stdin)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	w := bufio.NewWriter(m.Stdout)
	p := parse.NewParser(opts)
	var r parse.Robots
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
		if !ok {
			fmt.Fprintf(m.Stderr, "robotstat: stdin line %d: want FILE<TAB>AGENT<TAB>URL\n", n)
			w.WriteString("error\n")
			failed = true
			continue
		}
		if err := checkURL(url); err != nil {
			fmt.Fprintf(m.Stderr, "robotstat: stdin line %d: %v\n", n, err)
			w.WriteString("error\n")
			failed = true
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
			fmt.Fprintf(m.Stderr, "robotstat: stdin line %d: %v\n", n, curErr)
			w.WriteString("error\n")
			failed = true
			continue
		}
		if r.Decide(agent, url).Allowed {
			w.WriteString("allowed\n")
		} else {
			w.WriteString("disallowed\n")
			disallowed = true
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
