package check

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/robotstat/robotstat/explain"
	"github.com/robotstat/robotstat/parse"
)

// Batch answers robotstat check --batch: FILE<TAB>AGENT<TAB>URL lines in,
// one answer a line out, in order: allowed, disallowed or error, or a
// Record each with JSON. Each file is read and parsed once while
// consecutive lines name it, and each agent read once while consecutive
// lines name it (explain.ReadAgent against Bots, without notes: they
// would be one per line). Every robots.txt is taken as served with 200.
// A Batch may be reused, not used concurrently.
type Batch struct {
	Parse parse.Options
	JSON  bool
	Bots  []explain.Bot
	// Read returns the body of the robots.txt a line names (ReadBody's
	// bytes); its error is the line's.
	Read func(file string) ([]byte, error)
	// OnError, when set, is told of each line not decided (line from 1).
	OnError func(line int, err error)
}

// BatchResult is what a Batch run answered. A plain value.
type BatchResult struct {
	Lines      int
	Disallowed bool // a line was disallowed
	Failed     bool // a line was not decided
}

// Run answers every line of in into w. It fails only when in cannot be
// read (an error naming the line) or ctx is done (checked every 1024
// lines; what was answered is flushed); w's errors are the caller's to
// find with Flush.
func (b *Batch) Run(ctx context.Context, in io.Reader, w *bufio.Writer) (BatchResult, error) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	writeJSON := jsonLines(w)
	p := parse.NewParser(b.Parse)
	var r parse.Robots
	lastAgent, lastToken, agentRead := "", "", false
	cur, curErr, loaded := "", error(nil), false
	var res BatchResult
	for sc.Scan() {
		res.Lines++
		n := res.Lines
		if n%1024 == 0 && ctx.Err() != nil {
			w.Flush()
			return res, ctx.Err()
		}
		file, agent, url, ok := splitLine(sc.Text())
		// lineErr answers a line not decided.
		lineErr := func(err error) {
			if b.OnError != nil {
				b.OnError(n, err)
			}
			res.Failed = true
			if b.JSON {
				rec := Record{Verdict: "error", InputLine: n, Error: err.Error()}
				if ok { // else the line is not FILE, AGENT and URL
					rec.File, rec.Agent, rec.URL = file, agent, url
				}
				writeJSON(rec)
				return
			}
			w.WriteString("error\n")
		}
		if !ok {
			lineErr(errors.New("want FILE<TAB>AGENT<TAB>URL"))
			continue
		}
		if err := ValidURL(url); err != nil {
			lineErr(err)
			continue
		}
		if !loaded || file != cur {
			cur, loaded = file, true
			var body []byte
			if body, curErr = b.Read(file); curErr == nil {
				p.Compile(body, &r)
			}
		}
		if curErr != nil {
			lineErr(curErr)
			continue
		}
		if !agentRead || agent != lastAgent {
			lastAgent, agentRead = agent, true
			lastToken, _ = explain.ReadAgent(agent, b.Bots)
		}
		d := r.Decide(lastToken, url)
		res.Disallowed = res.Disallowed || !d.Allowed
		switch {
		case b.JSON:
			rec := NewRecord(file, agent, lastToken, url, 200, d)
			rec.InputLine = n
			writeJSON(rec)
		case d.Allowed:
			w.WriteString("allowed\n")
		default:
			w.WriteString("disallowed\n")
		}
	}
	if err := sc.Err(); err != nil {
		return res, fmt.Errorf("line %d: %w", res.Lines+1, err)
	}
	return res, nil
}

// splitLine splits a batch line (a trailing CR dropped) into its three
// fields; ok is false unless there are three and FILE is not empty.
func splitLine(s string) (file, agent, url string, ok bool) {
	s = strings.TrimSuffix(s, "\r")
	file, rest, ok1 := strings.Cut(s, "\t")
	agent, url, ok2 := strings.Cut(rest, "\t")
	return file, agent, url, ok1 && ok2 && file != ""
}
