package lint

import (
	"fmt"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/parse"
)

func lintOf(body string) []string {
	var l Linter
	l.SetBody([]byte(body))
	parse.NewParser(parse.Options{}).Parse([]byte(body), &l)
	var out []string
	for _, d := range l.Diagnostics() {
		out = append(out, fmt.Sprintf("%d %s %q", d.Line, d.Code, d.Value))
	}
	return out
}

func TestLinter(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"clean", "User-agent: *\nDisallow: /a\n", nil},
		{"rule_outside_group", "Disallow: /x\nUser-agent: *\n", []string{`1 rule-outside-group "Disallow: /x"`}},
		{"typo_and_missing_colon", "User-agent: *\nDissallow: /a\nDisallow /b\n",
			[]string{`2 typo "Dissallow: /a"`, `3 missing-colon "Disallow /b"`}},
		{"agent_not_token", "User-agent: GPTBot/1.1\nUser-agent: /360Spider\nDisallow: /\n",
			[]string{`1 user-agent-not-token "GPTBot/1.1"`, `2 user-agent-names-no-token "/360Spider"`}},
		{"agent_token_outside_rfc", "User-agent: 360Spider\nUser-agent: MJ12bot/v1.4\nUser-agent: Jävla-Foobot\nUser-agent: Ai2Bot-Dolma\nUser-agent: *\nDisallow: /\n",
			[]string{`1 user-agent-token-outside-rfc "360Spider"`, `2 user-agent-not-token "MJ12bot/v1.4"`, `2 user-agent-token-outside-rfc "MJ12bot/v1.4"`,
				`3 user-agent-token-outside-rfc "Jävla-Foobot"`, `4 user-agent-token-outside-rfc "Ai2Bot-Dolma"`}},
		{"unknown_key_not_extension", "User-agent: *\nFoo: bar\nCrawl-delay: 5\n", []string{`2 unknown-directive "Foo"`}},
		{"html_body", "<!DOCTYPE html>\n<html>\n", []string{`0 html-body ""`, `1 invalid-line "<!DOCTYPE html>"`, `2 invalid-line "<html>"`}},
		{"bom", "\xEF\xBB\xBFUser-agent: *\n", []string{`0 bom ""`}},
		{"bad_pattern", "User-agent: *\nDisallow: private\n", []string{`2 bad-pattern "Disallow: private"`}},
		{"long_line_quoted_in_part", "User-agent: *\nDisallow: /" + strings.Repeat("a", 20000) + "\n",
			[]string{`2 long-line "Disallow: /` + strings.Repeat("a", ValueLimit-len("Disallow: /")) + `"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := lintOf(tc.body)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			for _, d := range got {
				code := strings.Fields(d)[1]
				if Message(code) == "" {
					t.Errorf("no message for %s", code)
				}
			}
		})
	}
}

// TestLinterReuse: a reused Linter allocates nothing once warm, and the
// second body's findings do not keep the first's.
func TestLinterReuse(t *testing.T) {
	a := []byte("Disallow: /x\nUser-agent: *\nDissallow: /y\n")
	b := []byte("User-agent: *\n")
	var l Linter
	p := parse.NewParser(parse.Options{})
	run := func(body []byte) {
		l.SetBody(body)
		p.Parse(body, &l)
	}
	run(a)
	if n := testing.AllocsPerRun(100, func() { run(a) }); n != 0 {
		t.Errorf("allocs per body = %v, want 0", n)
	}
	run(b)
	if d := l.Diagnostics(); len(d) != 0 {
		t.Errorf("second body: %+v", d)
	}
}
