package explain

import (
	"github.com/robotstat/robotstat/lint"
	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/verdict"
)

// Request is one test case: a robots.txt, the agents and URLs to decide for
// (every agent with every URL), and the bots to give verdicts for.
type Request struct {
	Robots string   `json:"robots"`
	Agents []string `json:"agents"`
	URLs   []string `json:"urls"`
	// Status is the HTTP status the robots.txt was served with; 0 is 200.
	Status int `json:"status,omitempty"`
	// Bots are the bots whose verdicts the Report lists (robotstat tester
	// passes the catalog's AI bots); an agent that is a whole User-Agent
	// header is read as the first of them it names (ReadAgent).
	Bots []Bot `json:"bots,omitempty"`
}

// Bot is a bot to give a verdict for: a catalog entry's token, operator and
// category (stats.Bot; explain cannot import stats, which brings Parquet).
type Bot struct {
	Token    string `json:"token"`
	Operator string `json:"operator,omitempty"`
	Category string `json:"category,omitempty"`
}

// Report is the explanation of a Request.
type Report struct {
	Status int `json:"status"`
	// Outcome is parse.Outcome's name: parsed, unavailable or unreachable.
	Outcome string `json:"outcome"`
	// Decisions has one Decision per agent and URL, agent by agent in the
	// Request's order.
	Decisions []Decision `json:"decisions"`
	File      File       `json:"file"`
	// Bots has one verdict per Request bot, in order.
	Bots []BotVerdict `json:"bots"`
}

// BotVerdict is what the file says to one bot as a whole.
type BotVerdict struct {
	Bot
	// Match is named, star or none; GroupLines the lines of the groups
	// that apply.
	Match      string `json:"match"`
	GroupLines []int  `json:"group_lines"`
	// Verdict is verdict.Verdicter's (the bots table's verdict column):
	// full (no path may be fetched), partial or none.
	Verdict string `json:"verdict"`
	// RootAllowed reports whether "/" may be fetched.
	RootAllowed bool `json:"root_allowed"`
}

// Explainer explains Requests. It keeps its parser and scratch between
// calls; it is reusable and not safe for concurrent use. A Report it returns
// owns its memory.
type Explainer struct {
	parser *parse.Parser
	robots parse.Robots
	lint   lint.Linter
	rec    recorder
	vd     verdict.Verdicter
	tee    parse.Tee
}

// Explain parses req.Robots (unless the status says the body is not a
// robots.txt) and explains every decision. Only a status that is not one, or
// is a redirect, fails (see CheckStatus): content never fails.
func (x *Explainer) Explain(req *Request) (*Report, error) {
	status := req.Status
	if status == 0 {
		status = 200
	}
	outcome, err := CheckStatus(status, parse.StatusOptions{})
	if err != nil {
		return nil, err
	}
	if x.parser == nil {
		x.parser = parse.NewParser(parse.Options{})
		x.tee = parse.Tee{x.robots.Handler(), &x.lint, &x.rec}
	}
	var body []byte // a 4xx or 5xx answer's body is not read: no rules
	if outcome == parse.OutcomeParsed {
		body = []byte(req.Robots)
	}
	x.lint.SetBody(body)
	x.parser.Parse(body, x.tee)
	x.robots.SetOutcome(outcome)

	rep := &Report{Status: status, Outcome: outcome.String(), Decisions: []Decision{}, Bots: []BotVerdict{},
		File: newFile(&x.robots, &x.lint, &x.rec, outcome == parse.OutcomeParsed)}
	for _, a := range req.Agents {
		for _, u := range req.URLs {
			d := Decide(&x.robots, a, req.Bots, u, status)
			x.rec.asWritten(&d, body)
			rep.Decisions = append(rep.Decisions, d)
		}
	}
	x.vd.Reset(&x.robots, nil)
	groups := x.robots.Groups()
	for _, b := range req.Bots {
		id, m := x.robots.Lookup(b.Token)
		v := x.vd.For(id, m)
		bv := BotVerdict{Bot: b, Match: m.String(), GroupLines: []int{}, Verdict: v.Verdict,
			RootAllowed: v.RootAllowed != nil && *v.RootAllowed}
		for _, g := range x.robots.SetGroups(id) {
			bv.GroupLines = append(bv.GroupLines, groups[g].Line)
		}
		rep.Bots = append(rep.Bots, bv)
	}
	return rep, nil
}
