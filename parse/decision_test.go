package parse

import (
	"os"
	"strings"
	"testing"
)

func TestDecisionCarriesRuleAndGroups(t *testing.T) {
	body := "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /a\n\nUser-agent: *\nDisallow: /private\nAllow: /private/ok$\n\nUser-agent: gptbot\nAllow: /a/%62\n"
	var r Robots
	NewParser(Options{}).Compile([]byte(body), &r)
	cases := []struct {
		name      string
		agent     string
		url       string
		allowed   bool
		reason    Reason
		match     Match
		ruleLine  int
		directive Directive
		pattern   string
		groups    []int32
	}{
		{"named_rule", "GPTBot", "/a/x", false, ReasonRule, MatchNamed, 3, Disallow, "/a", []int32{0, 2}},
		{"named_merged_allow_normalised", "gptbot", "/a/b", true, ReasonRule, MatchNamed, 10, Allow, "/a/b", []int32{0, 2}},
		{"stacked_second_agent", "CCBot", "/a/b", false, ReasonRule, MatchNamed, 3, Disallow, "/a", []int32{0}},
		{"star_rule", "Googlebot", "/private/x", false, ReasonRule, MatchStar, 6, Disallow, "/private", []int32{1}},
		{"star_anchored_allow", "Googlebot", "/private/ok", true, ReasonRule, MatchStar, 7, Allow, "/private/ok$", []int32{1}},
		{"star_no_match", "Googlebot", "/public", true, ReasonNoMatch, MatchStar, 0, 0, "", []int32{1}},
		{"implicit_robots_txt", "CCBot", "/robots.txt", true, ReasonImplicit, MatchNamed, 0, 0, "", []int32{0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := r.Decide(c.agent, c.url)
			if d.Allowed != c.allowed || d.Reason != c.reason || d.Match != c.match {
				t.Fatalf("got %v/%v/%v, want %v/%v/%v", d.Allowed, d.Reason, d.Match, c.allowed, c.reason, c.match)
			}
			if c.ruleLine == 0 {
				if d.Rule != nil {
					t.Errorf("rule = line %d, want none", d.Rule.Line)
				}
			} else if d.Rule == nil || d.Rule.Line != c.ruleLine || d.Rule.Directive != c.directive || string(d.Rule.Pattern) != c.pattern {
				t.Errorf("rule = %+v, want line %d %v %q", d.Rule, c.ruleLine, c.directive, c.pattern)
			}
			if len(d.Groups) != len(c.groups) {
				t.Fatalf("groups = %v, want %v", d.Groups, c.groups)
			}
			for i := range c.groups {
				if d.Groups[i] != c.groups[i] {
					t.Errorf("groups = %v, want %v", d.Groups, c.groups)
				}
			}
		})
	}
	// Group structure.
	g := r.Groups()
	if len(g) != 3 || len(g[0].Agents) != 2 || string(g[0].Agents[1].Token) != "ccbot" || !g[1].Star || len(g[1].Rules) != 2 || g[2].Line != 9 {
		t.Errorf("groups = %+v", g)
	}
	if string(g[2].Rules[0].Raw) != "/a/%62" || string(g[2].Rules[0].Pattern) != "/a/b" {
		t.Errorf("raw/pattern = %q/%q", g[2].Rules[0].Raw, g[2].Rules[0].Pattern)
	}
	if r.NumSets() != 4 { // three groups, plus gptbot's merged pair
		t.Errorf("NumSets = %d, want 4", r.NumSets())
	}
	id1, _ := r.Lookup("GPTBot")
	id2, _ := r.Lookup("gptbot/2")
	id3, _ := r.Lookup("ccbot")
	if id1 != id2 || id1 == id3 {
		t.Errorf("set ids %d %d %d", id1, id2, id3)
	}
	if id, m := r.Lookup("*"); id != r.StarSet() || m != MatchStar {
		t.Errorf("Lookup(*) = %d %v", id, m)
	}
}

func TestSetRulesOrder(t *testing.T) {
	var r Robots
	NewParser(Options{}).Compile([]byte("User-agent: *\nDisallow: /a\nAllow: /a\nDisallow: /abc\nDisallow:\nAllow: /*\n"), &r)
	var got []string
	r.SetRules(r.StarSet(), func(ru *Rule) bool {
		got = append(got, ru.Directive.String()+" "+string(ru.Pattern))
		return true
	})
	want := "disallow /abc|allow /a|allow /*|disallow /a"
	if strings.Join(got, "|") != want {
		t.Errorf("order = %s, want %s", strings.Join(got, "|"), want)
	}
}

func TestSitemapsGlobal(t *testing.T) {
	var r Robots
	NewParser(Options{}).Compile([]byte("Sitemap: https://e.com/a.xml\nUser-agent: x\nSitemap: https://e.com/b.xml\nDisallow: /\nsitemap:https://e.com/c.xml\n"), &r)
	s := r.Sitemaps()
	if len(s) != 3 || string(s[0]) != "https://e.com/a.xml" || string(s[2]) != "https://e.com/c.xml" {
		t.Errorf("sitemaps = %q", s)
	}
	// A sitemap line does not end the user-agent run nor belong to a group.
	if g := r.Groups(); len(g) != 1 || len(g[0].Rules) != 1 {
		t.Errorf("groups = %+v", g)
	}
}

func TestPathOf(t *testing.T) {
	cases := map[string]string{
		"https://e.com/a/b?c=d#e": "/a/b?c=d",
		"https://e.com":           "",
		"https://e.com?x":         "?x",
		"HTTP://E.COM:80/p":       "/p",
		"//e.com/p":               "/p",
		"/p#f":                    "/p",
		"p/q":                     "p/q",
		"mailto:x@y":              "mailto:x@y",
		"":                        "",
	}
	for in, want := range cases {
		if got := string(PathOf([]byte(in))); got != want {
			t.Errorf("PathOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAppendPath(t *testing.T) {
	cases := map[string]string{
		"https://e.com/a/b?c=d#e": "/a/b?c=d",
		"https://e.com":           "/",
		"https://e.com?x":         "/?x",
		"example.com/a":           "/example.com/a",
		"/foo/%62ar/ツ":            "/foo/bar/%E3%83%84",
		"/a*b$":                   "/a%2Ab%24",
		"/robots.txt":             "/robots.txt",
	}
	for in, want := range cases {
		if got := string(AppendPath([]byte("x"), in)); got != "x"+want {
			t.Errorf("AppendPath(x, %q) = %q, want %q", in, got, "x"+want)
		}
		// The path shown is the one Decide matches: as an anchored rule
		// (escaped back where it would be a special character), it matches.
		pat := strings.NewReplacer("*", "%2A", "$", "%24").Replace(want) + "$"
		var r Robots
		NewParser(Options{}).Compile([]byte("User-agent: *\nDisallow: "+pat+"\n"), &r)
		if d := r.Decide("x", in); d.Reason != ReasonImplicit && d.Allowed {
			t.Errorf("%q: Disallow: %s does not match", in, pat)
		}
	}
}

func TestNormalise(t *testing.T) {
	cases := []struct {
		in      string
		pattern bool
		want    string
	}{
		{"/foo/bar/ツ", false, "/foo/bar/%E3%83%84"},
		{"/foo/bar/%62%61%7A", false, "/foo/bar/baz"},
		{"/a%2fb%3F", false, "/a%2Fb%3F"},
		{"/a*b$", false, "/a%2Ab%24"},
		{"/a*b$", true, "/a*b$"},
		{"/a$b", true, "/a%24b"},
		{"/a%2A", true, "/a%2A"},
		{"/a b\t\x7f", true, "/a%20b%09%7F"},
		{"/%zz%4", false, "/%zz%4"},
		{"/\"<>\\^`{|}", false, "/%22%3C%3E%5C%5E%60%7B%7C%7D"},
	}
	for _, c := range cases {
		if got := string(normalise(nil, []byte(c.in), c.pattern)); got != c.want {
			t.Errorf("normalise(%q, %v) = %q, want %q", c.in, c.pattern, got, c.want)
		}
		if got := needsNormalising([]byte(c.in), c.pattern); got != (c.in != c.want) && !strings.Contains(c.in, "%") {
			t.Errorf("needsNormalising(%q) = %v", c.in, got)
		}
	}
}

// TestRealFiles checks decisions on real files against what their authors
// evidently meant.
func TestRealFiles(t *testing.T) {
	cases := []struct {
		file, agent, url string
		want             bool
	}{
		{"spiegel.de.robots.txt", "GPTBot", "/politik/", false},
		{"spiegel.de.robots.txt", "Googlebot", "/politik/", true},
		{"spiegel.de.robots.txt", "Googlebot", "/a/CR-Dokumentation.pdf", false},
		{"spiegel.de.robots.txt", "Googlebot", "/a/CR-Dokumentation.pdf?x", true},
		{"spiegel.de.robots.txt", "Mozilla", "/politik/", true},
		{"reddit.robots.txt", "Googlebot", "/r/golang/.rss", true},
		{"reddit.robots.txt", "Googlebot", "/r/golang/comments/x.rss", false},
		{"reddit.robots.txt", "Googlebot", "/r/golang/submit", false},
		{"reddit.robots.txt", "Googlebot", "/r/golang/submit/", false},
		{"reddit.robots.txt", "Googlebot", "/r/golang/submitted", true},
		{"reddit.robots.txt", "MJ12bot", "/", false},
		{"reddit.robots.txt", "bender", "/my_shiny_metal_ass/x", false},
		{"reddit.robots.txt", "bender", "/api", true},
	}
	var r Robots
	p := NewParser(Options{})
	for _, c := range cases {
		body, err := os.ReadFile("testdata/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		p.Compile(body, &r)
		if d := r.Decide(c.agent, c.url); d.Allowed != c.want {
			t.Errorf("%s: Decide(%s, %s) = %v (%v), want %v", c.file, c.agent, c.url, d.Allowed, d.Reason, c.want)
		}
	}
}
