package verdict

import (
	"testing"

	"github.com/robotstat/robotstat/parse"
)

// verdictsOf compiles body, applies the status outcome and returns the
// verdicts and match for agent.
func verdictsOf(t testing.TB, body string, status int, agent string) (BotVerdict, parse.Match) {
	t.Helper()
	var r parse.Robots
	p := parse.NewParser(parse.Options{})
	out := parse.StatusOutcome(status, parse.StatusOptions{})
	if out == parse.OutcomeParsed {
		p.Compile([]byte(body), &r)
	} else {
		p.Compile(nil, &r)
	}
	r.SetOutcome(out)
	var v Verdicter
	v.Reset(&r, nil)
	id, m := r.Lookup(agent)
	return v.For(id, m), m
}

func TestVerdicts(t *testing.T) {
	type want struct {
		verdict, somesite, cic, cc string
		root                       bool
		match                      parse.Match
	}
	tests := []struct {
		name   string
		body   string
		status int
		agent  string
		want   want
	}{
		{"stacked_agents", "User-agent: CCBot\nUser-agent: GPTBot\nDisallow: /\n", 200, "GPTBot",
			want{"full", "full", "all", "disallow-all", false, parse.MatchNamed}},
		{"stacked_agents_first_of_stack", "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n", 200, "GPTBot",
			want{"full", "full", "all", "disallow-all", false, parse.MatchNamed}},
		{"RFC9309_2_2_4_stack_across_blank_and_other_records", "User-agent: GPTBot\nCrawl-delay: 5\n\n# x\nUser-agent: *\nDisallow: /\n", 200, "GPTBot",
			want{"full", "full", "all", "disallow-all", false, parse.MatchNamed}},
		{"stacked_long_list_others_unaffected", "User-agent: CCBot\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n", 200, "Googlebot",
			want{"none", "none", "none", "allow-all", true, parse.MatchStar}},
		{"split_groups_merged", "User-agent: GPTBot\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /b\n", 200, "GPTBot",
			want{"partial", "partial", "some", "allow-part", true, parse.MatchNamed}},
		{"split_groups_twice_disallow_root", "User-agent: GPTBot\nDisallow: /\n\nUser-agent: x\nDisallow:\n\nUser-agent: GPTBot\nDisallow: /\n", 200, "GPTBot",
			// Common Crawl's multiset is {disallow: [/, /]}, not exactly {disallow: [/]}.
			want{"full", "full", "all", "allow-part", false, parse.MatchNamed}},
		{"star_only_full", "User-agent: *\nDisallow: /\n", 200, "GPTBot",
			want{"full", "full", "all", "disallow-all", false, parse.MatchStar}},
		{"star_only_partial", "User-agent: *\nDisallow: /private/\n", 200, "GPTBot",
			want{"partial", "partial", "some", "allow-part", true, parse.MatchStar}},
		{"star_fallback_with_other_named", "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /\n", 200, "GPTBot",
			want{"full", "full", "all", "disallow-all", false, parse.MatchStar}},
		{"no_groups", "# nothing\nSitemap: https://x/s.xml\n", 200, "GPTBot",
			want{"none", "none", "none", "allow-all", true, parse.MatchNone}},
		{"empty_body", "", 200, "GPTBot",
			want{"none", "none", "none", "allow-all", true, parse.MatchNone}},
		{"RFC9309_2_3_1_3_status_404", "User-agent: *\nDisallow: /\n", 404, "GPTBot",
			want{"none", "none", "none", "allow-all", true, parse.MatchNone}},
		{"RFC9309_2_3_1_4_status_503", "", 503, "GPTBot",
			want{"full", "full", "all", "disallow-all", false, parse.MatchNone}},
		{"allow_overrides_disallow", "User-agent: GPTBot\nDisallow: /\nAllow: /public/\n", 200, "GPTBot",
			want{"partial", "partial", "some", "allow-part", false, parse.MatchNamed}},
		{"RFC9309_2_2_2_tie_allow_wins", "User-agent: GPTBot\nDisallow: /\nAllow: /\n", 200, "GPTBot",
			want{"none", "none", "none", "allow-part", true, parse.MatchNamed}},
		{"allow_root_only_dollar", "User-agent: GPTBot\nDisallow: /\nAllow: /$\n", 200, "GPTBot",
			want{"partial", "partial", "some", "allow-part", true, parse.MatchNamed}},
		{"wildcard_only_slash_star", "User-agent: GPTBot\nDisallow: /*\n", 200, "GPTBot",
			// cic looks for the literal "/", cc for exactly "Disallow: /".
			want{"full", "full", "some", "allow-part", false, parse.MatchNamed}},
		{"wildcard_only_star", "User-agent: GPTBot\nDisallow: *\n", 200, "GPTBot",
			want{"full", "full", "some", "allow-part", false, parse.MatchNamed}},
		{"wildcard_only_extension", "User-agent: GPTBot\nDisallow: /*.pdf$\n", 200, "GPTBot",
			want{"partial", "partial", "some", "allow-part", true, parse.MatchNamed}},
		{"wildcard_allow_beats_root", "User-agent: GPTBot\nDisallow: /\nAllow: /*.html$\n", 200, "GPTBot",
			want{"partial", "partial", "some", "allow-part", false, parse.MatchNamed}},
		{"wildcard_allow_mid_path", "User-agent: GPTBot\nAllow: /*/c/*\nDisallow: /\n", 200, "GPTBot",
			want{"partial", "partial", "some", "allow-part", false, parse.MatchNamed}},
		{"wildcard_leading_star_disallow", "User-agent: *\nAllow: /\nDisallow: */_include/\n", 200, "GPTBot",
			// Liu et al.'s pipeline tests "/_include/" for "*/_include/".
			want{"partial", "partial", "some", "allow-part", true, parse.MatchStar}},
		{"allow_shadowed_by_longer_disallow", "User-agent: GPTBot\nDisallow: /\nAllow: /a\nDisallow: /a*\n", 200, "GPTBot",
			want{"full", "full", "some", "allow-part", false, parse.MatchNamed}},
		{"allow_tie_with_disallow_same_length", "User-agent: GPTBot\nDisallow: /\nAllow: /a\nDisallow: /a\n", 200, "GPTBot",
			want{"partial", "partial", "some", "allow-part", false, parse.MatchNamed}},
		{"disallow_empty", "User-agent: GPTBot\nDisallow:\n", 200, "GPTBot",
			want{"none", "none", "none", "allow-all", true, parse.MatchNamed}},
		{"allow_slash", "User-agent: GPTBot\nAllow: /\n", 200, "GPTBot",
			want{"none", "none", "none", "allow-all", true, parse.MatchNamed}},
		{"allow_slash_star", "User-agent: GPTBot\nAllow: /*\n", 200, "GPTBot",
			want{"none", "none", "none", "allow-all", true, parse.MatchNamed}},
		{"allow_star", "User-agent: GPTBot\nAllow: *\n", 200, "GPTBot",
			want{"none", "none", "none", "allow-all", true, parse.MatchNamed}},
		{"allow_empty", "User-agent: GPTBot\nAllow:\n", 200, "GPTBot",
			want{"none", "none", "none", "allow-all", true, parse.MatchNamed}},
		{"cic_query_rules_ignored", "User-agent: GPTBot\nDisallow: /search?q=\n", 200, "GPTBot",
			want{"partial", "partial", "none", "allow-part", true, parse.MatchNamed}},
		{"cic_allow_equals_disallow", "User-agent: GPTBot\nDisallow: /a\nAllow: /a\n", 200, "GPTBot",
			want{"none", "none", "none", "allow-part", true, parse.MatchNamed}},
		{"named_group_without_rules", "User-agent: *\nDisallow: /\n\nUser-agent: GPTBot\n", 200, "GPTBot",
			// RFC: a named group applies even without rules (allow all); Common
			// Crawl's extraction never records the agent and falls back to *.
			want{"none", "none", "none", "disallow-all", true, parse.MatchNamed}},
		{"RFC9309_2_2_2_robots_txt_implicitly_allowed", "User-agent: GPTBot\nDisallow: /\nAllow: /robots.txt$\n", 200, "GPTBot",
			want{"full", "full", "some", "allow-part", false, parse.MatchNamed}},
		{"allow_robots_txt_prefix_allows_more", "User-agent: GPTBot\nDisallow: /\nAllow: /robots.txt\n", 200, "GPTBot",
			// "Allow: /robots.txt" is a prefix rule: /robots.txt.bak may be
			// fetched, so not every path is disallowed. Somesite only tests
			// /robots.txt itself, which RFC 9309 always allows.
			want{"partial", "full", "some", "allow-part", false, parse.MatchNamed}},
		{"Google_token_prefix_version", "User-agent: GPTBot/1.1\nDisallow: /\n", 200, "GPTBot",
			want{"full", "full", "all", "disallow-all", false, parse.MatchNamed}},
		{"token_case_insensitive", "user-agent: gptbot\ndisallow: /\n", 200, "GPTBot",
			want{"full", "full", "all", "disallow-all", false, parse.MatchNamed}},
		{"Google_typo_dissallow_counts", "User-agent: GPTBot\nDissallow: /\n", 200, "GPTBot",
			want{"full", "full", "all", "disallow-all", false, parse.MatchNamed}},
		{"percent_encoded_root", "User-agent: GPTBot\nDisallow: /%7E\n", 200, "GPTBot",
			want{"partial", "partial", "some", "allow-part", true, parse.MatchNamed}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, m := verdictsOf(t, tc.body, tc.status, tc.agent)
			if !v.Known() {
				t.Fatalf("verdicts unknown (RootAllowed nil)")
			}
			got := want{v.Verdict, v.Somesite, v.CIC, v.CCClass, *v.RootAllowed, m}
			if got != tc.want {
				t.Errorf("%q as %s:\n got %+v\nwant %+v", tc.body, tc.agent, got, tc.want)
			}
		})
	}
}

func TestVerdictsRedirectUnknown(t *testing.T) {
	v, _ := verdictsOf(t, "User-agent: *\nDisallow: /\n", 301, "GPTBot")
	if v.Known() || v.Verdict != Unknown || v.Somesite != Unknown || v.CIC != Unknown || v.CCClass != Unknown {
		t.Errorf("301: %+v", v)
	}
}

// TestVerdictsPerSet checks that agents sharing a group set share one
// computation and that an early answer does not leak into another set.
func TestVerdictsPerSet(t *testing.T) {
	body := "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp/\n"
	var r parse.Robots
	parse.NewParser(parse.Options{}).Compile([]byte(body), &r)
	var v Verdicter
	v.Reset(&r, nil)
	id1, m1 := r.Lookup("GPTBot")
	id2, m2 := r.Lookup("CCBot")
	id3, m3 := r.Lookup("ClaudeBot")
	if id1 != id2 {
		t.Fatalf("stacked agents in different sets: %d %d", id1, id2)
	}
	if a, b := v.For(id1, m1), v.For(id2, m2); a != b || a.Verdict != Full {
		t.Errorf("stacked: %+v %+v", a, b)
	}
	if c := v.For(id3, m3); c.Verdict != Partial || m3 != parse.MatchStar {
		t.Errorf("star: %+v %v", c, m3)
	}
}

func TestVerdictsNoAllocs(t *testing.T) {
	body := []byte("User-agent: GPTBot\nDisallow: /\nAllow: /*.html$\n\nUser-agent: *\nDisallow: /tmp/\nAllow: /tmp/ok\n")
	var r parse.Robots
	p := parse.NewParser(parse.Options{})
	var v Verdicter
	run := func() {
		p.Compile(body, &r)
		v.Reset(&r, nil)
		for _, a := range [...]string{"GPTBot", "ClaudeBot", "*"} {
			id, m := r.Lookup(a)
			v.For(id, m)
		}
	}
	run()
	if n := testing.AllocsPerRun(100, run); n != 0 {
		t.Errorf("allocs per file = %v, want 0", n)
	}
}

func TestIsUniversal(t *testing.T) {
	for pat, want := range map[string]bool{"/": true, "/*": true, "*": true, "/**": true, "/*$": true, "*$": true,
		"/$": false, "$": false, "": false, "/a": false, "/*a": false, "a": false} {
		if got := isUniversal([]byte(pat)); got != want {
			t.Errorf("%q: %v", pat, got)
		}
	}
}
