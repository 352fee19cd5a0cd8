package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/robotstat/robotstat/explain"
	"github.com/robotstat/robotstat/explain/check"
	"github.com/robotstat/robotstat/internal/cli"
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
	fs := cli.NewFlagSet("check")
	var f checkFlags
	fs.BoolVar(&f.explain, "explain", false, "say which rule and group decided each URL")
	fs.IntVar(&f.status, "status", 200, "HTTP `status` the robots.txt was served with")
	fs.BoolVar(&f.batch, "batch", false, "read FILE<TAB>AGENT<TAB>URL lines from stdin")
	fs.BoolVar(&f.json, "json", false, "print one JSON object a line per decision (fields in --help)")
	fs.IntVar(&f.limit, "parse-limit", parse.DefaultLimit, "parse at most this many `bytes` of a file (RFC 9309 §2.5 minimum 512000; -1 for no limit)")
	fs.BoolVar(&f.google429, "429-unreachable", false, "treat status 429 like 5xx, as Google does (RFC 9309 says 4xx)")
	pos, err := parseFlags(fs, args, m.Stdout, checkUsage)
	if err != nil {
		return cli.IgnoreHelp(err)
	}
	opts := parse.Options{Limit: f.limit}
	if err := opts.Validate(); err != nil {
		return cli.Usagef("check", "--parse-limit: %v", err)
	}
	if f.batch {
		if len(pos) != 0 {
			return cli.Usagef("check", "--batch takes no arguments; it reads FILE<TAB>AGENT<TAB>URL lines from stdin")
		}
		return m.checkBatch(ctx, opts, f)
	}
	if len(pos) < 3 {
		return cli.Usagef("check", "need ROBOTS_FILE AGENT URL..., got %d argument(s)", len(pos))
	}
	outcome, err := explain.CheckStatus(f.status, parse.StatusOptions{TooManyRequestsUnreachable: f.google429})
	if err != nil {
		return cli.Usagef("check", "--%v", err)
	}
	file, agent, urls := pos[0], pos[1], pos[2:]
	for _, u := range urls {
		if err := check.ValidURL(u); err != nil {
			return cli.Usagef("check", "%v", err)
		}
	}
	bots := check.Bots(stats.DefaultCatalog(), nil)
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
	q := check.Query{File: file, Agent: agent, Token: token, Status: f.status, URLs: urls}
	disallowed := check.WriteDecisions(w, &r, q, check.Output{JSON: f.json, Explain: f.explain, Bots: bots})
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing to stdout: %w", err)
	}
	if disallowed {
		return cli.Silent(ExitDisallowed)
	}
	return nil
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

// readRobots reads a robots.txt file, "-" standard input (check.ReadBody).
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
	body, err := check.ReadBody(r, opts)
	if err != nil {
		return nil, fmt.Errorf("reading robots.txt from %s: %w", name, err)
	}
	return body, nil
}

// checkBatch serves --batch: a line not decided is said on stderr too.
func (m *Main) checkBatch(ctx context.Context, opts parse.Options, f checkFlags) error {
	b := check.Batch{Parse: opts, JSON: f.json, Bots: check.Bots(stats.DefaultCatalog(), nil),
		Read: func(file string) ([]byte, error) { return m.readRobots(file, opts) },
		OnError: func(line int, err error) {
			fmt.Fprintf(m.Stderr, "robotstat: stdin line %d: %v\n", line, err)
		}}
	w := bufio.NewWriter(m.Stdout)
	res, err := b.Run(ctx, m.Stdin, w)
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return err
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing to stdout: %w", err)
	}
	if err != nil {
		return fmt.Errorf("reading stdin %w", err)
	}
	switch {
	case res.Failed:
		return cli.Silent(ExitUsage)
	case res.Disallowed:
		return cli.Silent(ExitDisallowed)
	}
	return nil
}
