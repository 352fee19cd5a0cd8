package stats

import (
	"errors"
	"strings"
	"testing"
)

func TestParseSite(t *testing.T) {
	tests := []struct {
		url  string
		want Site
	}{
		{"https://www.example.com/robots.txt", Site{"https", "www.example.com", 443, "example.com"}},
		{"HTTP://WWW.Example.CO.UK:8080/robots.txt", Site{"http", "www.example.co.uk", 8080, "example.co.uk"}},
		{"http://user:pw@a.b.github.io/robots.txt", Site{"http", "a.b.github.io", 80, "b.github.io"}},
		{"https://münchen.de/robots.txt", Site{"https", "xn--mnchen-3ya.de", 443, "xn--mnchen-3ya.de"}},
		{"http://[2001:db8::1]:81/robots.txt", Site{"http", "2001:db8::1", 81, ""}},
		{"http://10.0.0.1/robots.txt", Site{"http", "10.0.0.1", 80, ""}},
		{"https://example.com./robots.txt", Site{"https", "example.com", 443, "example.com"}},
		{"https://co.uk/robots.txt", Site{"https", "co.uk", 443, ""}},
		{"ftp://example.org", Site{"ftp", "example.org", 0, "example.org"}},
		{"/robots.txt", Site{}},
		{"", Site{}},
	}
	for _, tc := range tests {
		if got := ParseSite(tc.url); got != tc.want {
			t.Errorf("%q:\n got %+v\nwant %+v", tc.url, got, tc.want)
		}
	}
	// publicsuffix.EffectiveTLDPlusOne allocates once; nothing else may.
	if n := testing.AllocsPerRun(100, func() { ParseSite("https://www.example.com/robots.txt") }); n > 1 {
		t.Errorf("ParseSite allocs = %v", n)
	}
}

func TestResolveLocation(t *testing.T) {
	for _, tc := range []struct{ base, loc, want string }{
		{"https://a.com/robots.txt", "/x/robots.txt", "https://a.com/x/robots.txt"},
		{"https://a.com/robots.txt", "https://b.com/robots.txt", "https://b.com/robots.txt"},
		{"http://a.com/robots.txt", "//b.com/r.txt", "http://b.com/r.txt"},
		{"http://a.com/robots.txt", "", ""},
	} {
		if got := ResolveLocation(tc.base, tc.loc); got != tc.want {
			t.Errorf("%q + %q = %q, want %q", tc.base, tc.loc, got, tc.want)
		}
	}
}

func TestReadRanks(t *testing.T) {
	in := "\uFEFFrank,domain\n1,google.com\n2,Example.COM.\n\n# comment\n3,www.host-ranked.org\n5,example.com\n"
	rt, err := ReadRanks(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if rt.Len() != 3 {
		t.Errorf("%d domains", rt.Len())
	}
	for _, tc := range []struct {
		host, dom string
		rank      int64
		ok        bool
	}{
		{"www.example.com", "example.com", 2, true},
		{"example.com", "example.com", 2, true},
		{"www.host-ranked.org", "host-ranked.org", 3, true},
		{"other.host-ranked.org", "host-ranked.org", 0, false},
		{"unknown.net", "unknown.net", 0, false},
	} {
		if n, ok := rt.Rank(tc.host, tc.dom); n != tc.rank || ok != tc.ok {
			t.Errorf("%s: %d %v", tc.host, n, ok)
		}
	}
	var nilTable *RankTable
	if _, ok := nilTable.Rank("a", "b"); ok {
		t.Error("nil table ranked")
	}
	for _, bad := range []string{"1;google.com\n", "1,google.com\nx,y\n", "1,\n"} {
		if _, err := ReadRanks(strings.NewReader(bad)); !errors.Is(err, ErrRankFormat) {
			t.Errorf("%q: err %v", bad, err)
		}
	}
}

func TestStatusClass(t *testing.T) {
	for status, want := range map[int]string{200: "success", 204: "other", 301: "redirect", 308: "redirect", 400: "notfound",
		401: "unauthorized", 403: "forbidden", 404: "notfound", 410: "notfound", 418: "other", 429: "defer_visits",
		500: "defer_visits", 503: "defer_visits", 599: "defer_visits", 0: "other", 600: "other"} {
		if got := StatusClass(status); got != want {
			t.Errorf("%d: %q, want %q", status, got, want)
		}
	}
}
