package explain

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/parse"
)

func explainOne(t *testing.T, robots, agent, url string) Decision {
	t.Helper()
	var x Explainer
	rep, err := x.Explain(&Request{Robots: robots, Agents: []string{agent}, URLs: []string{url}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Decisions) != 1 {
		t.Fatalf("%d decisions", len(rep.Decisions))
	}
	return rep.Decisions[0]
}

// notes is "line:decides/note" for each matched rule, for compact wants.
func notes(d Decision) []string {
	var out []string
	for _, r := range d.Matched {
		s := r.Directive + " " + r.Value
		if r.Decides {
			s += " DECIDES"
		}
		out = append(out, s+": "+r.Note)
	}
	return out
}

func TestDecide(t *testing.T) {
	tests := []struct {
		name, robots, agent, url string
		verdict, reason, match   string
		text                     string
		why                      string   // substring
		matched                  []string // notes(d), exact
		applies                  []string // agent values marked Applies
	}{
		{name: "RFC9309_2_2_1_stacked_user_agents_named",
			robots: "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n", agent: "CCBot", url: "/x",
			verdict: "disallowed", reason: "rule", match: "named",
			text:    "line 3: disallow: /; matched by name: group at line 1 [GPTBot CCBot]",
			why:     "a group names ccbot, so its rules apply and the * group does not",
			matched: []string{"disallow / DECIDES: longest match (1 octet)"}, applies: []string{"CCBot"}},
		{name: "RFC9309_2_2_1_star_fallback",
			robots: "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n", agent: "Googlebot", url: "https://e.com/private/x",
			verdict: "disallowed", reason: "rule", match: "star", why: "no group names googlebot, so the * group applies",
			text:    "line 5: disallow: /private; matched by *: group at line 4 [*]",
			matched: []string{"disallow /private DECIDES: longest match (8 octets)"}, applies: []string{"*"}},
		{name: "RFC9309_2_2_1_merged_groups",
			robots: "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\nUser-agent: a\nAllow: /x/ok\n", agent: "a", url: "/x/ok/1",
			verdict: "allowed", reason: "rule", match: "named", why: "2 groups name a; they are merged",
			text: "line 6: allow: /x/ok; matched by name: group at line 1 [a], group at line 5 [a]",
			matched: []string{"allow /x/ok DECIDES: longest match (5 octets)",
				"disallow /x: shorter (2 octets < 5): loses to line 6"}},
		{name: "RFC9309_2_2_2_tie_allow_wins",
			robots: "User-agent: *\nDisallow: /a\nAllow: /a\n", agent: "x", url: "/a",
			verdict: "allowed", reason: "rule", match: "star",
			matched: []string{"allow /a DECIDES: longest match (2 octets); allow wins the tie with line 2",
				"disallow /a: same length (2 octets): allow wins a tie (RFC 9309 §2.2.2), so line 3 decides"}},
		{name: "RFC9309_2_2_3_wildcard_longer_than_literal",
			robots: "User-agent: *\nAllow: /page\nDisallow: /*.htm$\n", agent: "x", url: "/page.htm",
			verdict: "disallowed", reason: "rule",
			matched: []string{"disallow /*.htm$ DECIDES: longest match (7 octets)", "allow /page: shorter (5 octets < 7): loses to line 3"}},
		{name: "RFC9309_2_2_2_percent_normalised",
			robots: "User-agent: *\nDisallow: /foo/%62ar\n", agent: "x", url: "/foo/b%61r/ツ",
			verdict: "disallowed", reason: "rule",
			text: "line 2: disallow: /foo/%62ar (normalised /foo/bar); matched by *: group at line 1 [*]"},
		{name: "RFC9309_2_2_2_no_rule_matches",
			robots: "User-agent: *\nDisallow: /private\n", agent: "x", url: "/public",
			verdict: "allowed", reason: "no-match", text: "no rule matched; matched by *: group at line 1 [*]"},
		{name: "RFC9309_2_2_1_no_group",
			robots: "User-agent: a\nDisallow: /\n", agent: "GPTBot/1.1", url: "/",
			verdict: "allowed", reason: "no-group", match: "none", text: `no group names "gptbot" and there is no * group`,
			why: "no group names gptbot and there is no * group"},
		{name: "Deviation_robots_txt_implicit",
			robots: "User-agent: *\nDisallow: /\n", agent: "x", url: "/robots.txt",
			verdict: "allowed", reason: "implicit", text: "/robots.txt is implicitly allowed (RFC 9309 §2.2.2)",
			matched: []string{"disallow /: matches, but /robots.txt is implicitly allowed (RFC 9309 §2.2.2)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := explainOne(t, tc.robots, tc.agent, tc.url)
			if d.Verdict != tc.verdict || d.Reason != tc.reason || tc.match != "" && d.Match != tc.match {
				t.Errorf("verdict %s reason %s match %s, want %s %s %s", d.Verdict, d.Reason, d.Match, tc.verdict, tc.reason, tc.match)
			}
			if tc.text != "" && d.Text != tc.text {
				t.Errorf("text\n%s\nwant\n%s", d.Text, tc.text)
			}
			if !strings.Contains(d.Why, tc.why) {
				t.Errorf("why %q lacks %q", d.Why, tc.why)
			}
			if tc.matched != nil && strings.Join(notes(d), "\n") != strings.Join(tc.matched, "\n") {
				t.Errorf("matched\n%s\nwant\n%s", strings.Join(notes(d), "\n"), strings.Join(tc.matched, "\n"))
			}
			if tc.applies != nil {
				var got []string
				for _, g := range d.Groups {
					for _, a := range g.Agents {
						if a.Applies {
							got = append(got, a.Value)
						}
					}
				}
				if strings.Join(got, ",") != strings.Join(tc.applies, ",") {
					t.Errorf("applies %v, want %v", got, tc.applies)
				}
			}
		})
	}
}

func TestDecidePath(t *testing.T) {
	d := explainOne(t, "User-agent: *\nDisallow: /foo/%62ar\n", "x", "https://e.com/foo/b%61r/ツ?q#frag")
	if d.Path != "/foo/bar/%E3%83%84?q" {
		t.Errorf("path %q", d.Path)
	}
	if d.Rule == nil || d.Rule.Pattern != "/foo/bar" || d.Rule.Value != "/foo/%62ar" || d.Rule.GroupLine != 1 || d.Rule.Line != 2 {
		t.Errorf("rule %+v", d.Rule)
	}
}

func TestExplainFile(t *testing.T) {
	robots := "Disallow: /outside\nUser-agent: *\nDissallow: /typo\nDisallow /nocolon\nCrawl-delay: 10\nContent-Signal: ai-train=no\nFoo: bar\nSitemap: https://e.com/s.xml\n"
	var x Explainer
	rep, err := x.Explain(&Request{Robots: robots, Agents: []string{"x"}, URLs: []string{"/typo", "/nocolon", "/outside"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range rep.Decisions {
		got = append(got, d.Verdict)
	}
	if strings.Join(got, " ") != "disallowed disallowed allowed" {
		t.Errorf("decisions %v", got)
	}
	var diags []string
	for _, d := range rep.File.Diagnostics {
		diags = append(diags, d.Code+"@"+string(rune('0'+d.Line))+"="+d.ReadAs)
	}
	want := "rule-outside-group@1= typo@3=disallow: /typo missing-colon@4=disallow: /nocolon unknown-directive@7="
	if strings.Join(diags, " ") != want {
		t.Errorf("diagnostics\n%s\nwant\n%s", strings.Join(diags, " "), want)
	}
	var recs []string
	for _, r := range rep.File.Records {
		recs = append(recs, r.Name+"/"+r.Kind+"/"+r.Value)
		if r.Note == "" || r.GroupLine != 2 && r.Name != "sitemap" || r.Name == "sitemap" && r.GroupLine != 0 {
			t.Errorf("record %+v", r)
		}
	}
	if strings.Join(recs, " ") != "crawl-delay/extension/10 content-signal/extension/ai-train=no foo/unknown/bar sitemap/extension/https://e.com/s.xml" {
		t.Errorf("records %v", recs)
	}
	if f := rep.File; !f.Read || f.Groups != 1 || f.Rules != 2 || f.Lines != 8 {
		t.Errorf("file %+v", f)
	}
}

func TestExplainHTMLBody(t *testing.T) {
	var x Explainer
	rep, _ := x.Explain(&Request{Robots: "<!DOCTYPE html>\n<html><body>Not found</body></html>\n", Agents: []string{"x"}, URLs: []string{"/"}})
	if len(rep.File.Diagnostics) == 0 || rep.File.Diagnostics[0].Code != "html-body" || rep.File.Diagnostics[0].Line != 0 {
		t.Errorf("diagnostics %+v", rep.File.Diagnostics)
	}
}

func TestExplainBots(t *testing.T) {
	robots := "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: ClaudeBot\nDisallow: /private\n\nUser-agent: *\nAllow: /\n"
	bots := []Bot{{Token: "GPTBot"}, {Token: "CCBot"}, {Token: "ClaudeBot"}, {Token: "PerplexityBot"}}
	var x Explainer
	rep, _ := x.Explain(&Request{Robots: robots, Bots: bots})
	var got []string
	for _, b := range rep.Bots {
		got = append(got, b.Token+":"+b.Match+":"+b.Verdict)
	}
	if want := "GPTBot:named:full CCBot:named:full ClaudeBot:named:partial PerplexityBot:star:none"; strings.Join(got, " ") != want {
		t.Errorf("bots %v, want %s", got, want)
	}
	if l := rep.Bots[0].GroupLines; len(l) != 1 || l[0] != 1 {
		t.Errorf("group lines %v", l)
	}
}

func TestExplainStatus(t *testing.T) {
	var x Explainer
	for _, c := range []struct {
		status           int
		verdict, outcome string
		text             string
	}{
		{404, "allowed", "unavailable", "status 404: robots.txt unavailable, everything allowed (RFC 9309 §2.3.1.3)"},
		{503, "disallowed", "unreachable", "status 503: robots.txt unreachable, everything disallowed (RFC 9309 §2.3.1.4)"},
	} {
		rep, err := x.Explain(&Request{Robots: "User-agent: *\nDisallow: /\n", Agents: []string{"x"}, URLs: []string{"/a"}, Status: c.status,
			Bots: []Bot{{Token: "GPTBot"}}})
		if err != nil {
			t.Fatal(err)
		}
		d := rep.Decisions[0]
		if d.Verdict != c.verdict || rep.Outcome != c.outcome || d.Text != c.text || rep.File.Read || rep.File.Rules != 0 {
			t.Errorf("%d: %+v %s", c.status, d, rep.Outcome)
		}
	}
	for status, want := range map[int]error{301: ErrRedirect, 42: ErrNotStatus, 600: ErrNotStatus} {
		if _, err := x.Explain(&Request{Status: status}); !errors.Is(err, want) {
			t.Errorf("status %d: %v, want %v", status, err, want)
		}
	}
}

// TestDecideAgreesWithMatcher checks, on random files and paths, that an
// explanation never disagrees with parse: the decision is Decide's, every
// rule listed matches, they come in decision order and the first is the
// deciding rule.
func TestDecideAgreesWithMatcher(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 7))
	chars := []byte("/ab*$%2")
	p := parse.NewParser(parse.Options{})
	var r parse.Robots
	for i := 0; i < 3000; i++ {
		var sb strings.Builder
		for g := rng.IntN(3) + 1; g > 0; g-- {
			sb.WriteString([]string{"User-agent: x\n", "User-agent: *\n", "User-agent: y\nUser-agent: x\n"}[rng.IntN(3)])
			for k := rng.IntN(5); k > 0; k-- {
				sb.WriteString([]string{"Allow: ", "Disallow: "}[rng.IntN(2)])
				for j := rng.IntN(5); j > 0; j-- {
					sb.WriteByte(chars[rng.IntN(len(chars))])
				}
				sb.WriteByte('\n')
			}
		}
		p.Compile([]byte(sb.String()), &r)
		for j := 0; j < 10; j++ {
			path := "/"
			for k := rng.IntN(5); k > 0; k-- {
				path += string(chars[rng.IntN(len(chars))])
			}
			agent := []string{"x", "y", "z"}[rng.IntN(3)]
			want := r.Decide(agent, path)
			d := Decide(&r, agent, nil, path, 200)
			if d.Allowed != want.Allowed || d.Reason != want.Reason.String() {
				t.Fatalf("%q %s %q: explained %v/%s, Decide %v/%v", sb.String(), agent, path, d.Allowed, d.Reason, want.Allowed, want.Reason)
			}
			if want.Rule != nil && (len(d.Matched) == 0 || !d.Matched[0].Decides || d.Matched[0].Line != want.Rule.Line || d.Rule.Line != want.Rule.Line) {
				t.Fatalf("%q %s %q: rule line %d, matched %+v", sb.String(), agent, path, want.Rule.Line, d.Matched)
			}
			for k := 1; k < len(d.Matched); k++ {
				if d.Matched[k].Length > d.Matched[k-1].Length || d.Matched[k].Decides {
					t.Fatalf("%q %q: matched out of order %+v", sb.String(), path, d.Matched)
				}
			}
		}
	}
}

// TestReportJSON: a Report encodes to the JSON the tester's page reads,
// with empty lists as [] (the page iterates them) and no null where a list
// is expected.
func TestReportJSON(t *testing.T) {
	var x Explainer
	rep, _ := x.Explain(&Request{Robots: "", Agents: []string{"x"}, URLs: []string{"/"}})
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{`"decisions":[{`, `"diagnostics":[]`, `"records":[]`, `"bots":[]`, `"verdict":"allowed"`} {
		if !strings.Contains(s, want) {
			t.Errorf("JSON lacks %s: %s", want, s)
		}
	}
	if strings.Contains(s, "null") {
		t.Errorf("JSON has null: %s", s)
	}
}

func TestExplainJSON(t *testing.T) {
	var x Explainer
	got := string(x.ExplainJSON([]byte(`{"robots":"User-agent: *\nDisallow: /a\n","agents":["x"],"urls":["/a","/b"]}`)))
	if !strings.HasPrefix(got, `{"report":{`) || strings.Count(got, `"verdict":"disallowed"`) != 1 || strings.Count(got, `"verdict":"allowed"`) != 1 {
		t.Errorf("reply %s", got)
	}
	for req, want := range map[string]string{
		`{"robots":1}`:   `{"error":"explain: request: json: cannot unmarshal`,
		`{"status":302}`: `{"error":"status 302 is a redirect: follow it`,
	} {
		if got := string(x.ExplainJSON([]byte(req))); !strings.HasPrefix(got, want) {
			t.Errorf("%s: %s, want %s...", req, got, want)
		}
	}
}

func TestRuleAsWritten(t *testing.T) {
	d := explainOne(t, "User-agent: *\nDissallow:   /typo   # why\nDisallow /nocolon\n", "x", "/typo")
	if d.Rule == nil || d.Rule.Text != "Dissallow:   /typo   # why" || d.Rule.ReadAs != "disallow: /typo" {
		t.Errorf("rule %+v", d.Rule)
	}
	if len(d.Matched) != 1 || d.Matched[0].Text != d.Rule.Text {
		t.Errorf("matched %+v", d.Matched)
	}
	d = explainOne(t, "User-agent: *\nDisallow /nocolon\n", "x", "/nocolon")
	if d.Rule == nil || d.Rule.ReadAs != "disallow: /nocolon" {
		t.Errorf("rule %+v", d.Rule)
	}
}

// TestDecideStatusWhy (issue 25.7): for a 5xx the tester said "no group
// names x and there is no * group" beside a file that shows one. A status
// whose body is not read says so: RFC 9309 §2.3.1.4, unreachable, every
// path disallowed; §2.3.1.3, unavailable, every path allowed.
func TestDecideStatusWhy(t *testing.T) {
	for _, tc := range []struct {
		name    string
		status  int
		verdict string
		why     string
	}{
		{"RFC9309_2_3_1_4_unreachable_5xx", 503, "disallowed", "status 503: unreachable: every path disallowed (RFC 9309 §2.3.1.4)"},
		{"RFC9309_2_3_1_4_unreachable_500", 500, "disallowed", "status 500: unreachable: every path disallowed"},
		{"RFC9309_2_3_1_3_unavailable_4xx", 404, "allowed", "status 404: unavailable: every path allowed (RFC 9309 §2.3.1.3)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var x Explainer
			rep, err := x.Explain(&Request{Robots: "User-agent: *\nAllow: /\n", Agents: []string{"GPTBot"}, URLs: []string{"/x"}, Status: tc.status})
			if err != nil {
				t.Fatal(err)
			}
			d := rep.Decisions[0]
			if d.Verdict != tc.verdict || !strings.HasPrefix(d.Why, tc.why) || strings.Contains(d.Why, "there is no * group") {
				t.Errorf("verdict %s, why %q; want %s, %q", d.Verdict, d.Why, tc.verdict, tc.why)
			}
		})
	}
}
