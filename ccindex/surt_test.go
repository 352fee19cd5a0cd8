package ccindex

import "testing"

// TestSURT checks keys against the surt library's own tests
// (internetarchive/surt tests/test_surt.py, from archive-commons'
// WaybackURLKeyMakerTest, IAURLCanonicalizerTest and
// GoogleURLCanonicalizerTest) and against keys of Common Crawl's index.
func TestSURT(t *testing.T) {
	for _, tc := range []struct{ name, url, want string }{
		{"surt_empty", "", "-"},
		{"surt_filedesc", "filedesc:foo.arc.gz", "filedesc:foo.arc.gz"},
		{"surt_dns", "dns:alexa.com", "dns:alexa.com"},
		{"surt_mailto", "mailto:foo@example.com", "mailto:foo@example.com"},
		{"surt_www", "http://www.archive.org/", "org,archive)/"},
		{"surt_plain", "http://archive.org/", "org,archive)/"},
		{"surt_trailing_slash", "http://archive.org/goo/", "org,archive)/goo"},
		{"surt_empty_query", "http://archive.org/goo/?", "org,archive)/goo"},
		{"surt_query_order", "http://archive.org/goo/?b&a", "org,archive)/goo?a&b"},
		{"surt_query_values", "http://archive.org/goo/?a=2&b&a=1", "org,archive)/goo?a=1&a=2&b"},
		{"surt_whois", "whois://whois.isoc.org.il/shaveh.co.il", "il,org,isoc,whois)/shaveh.co.il"},
		{"surt_yahoo_web_bug", "http://visit.webhosting.yahoo.com/visit.gif?&r=http%3A//web.archive.org/web/20090517140029/http%3A//anthonystewarthead.electric-chi.com/&b=Netscape%205.0%20%28Windows%3B%20en-US%29&s=1366x768&o=Win32&c=24&j=true&v=1.2",
			"com,yahoo,webhosting,visit)/visit.gif?&b=netscape%205.0%20(windows;%20en-us)&c=24&j=true&o=win32&r=http://web.archive.org/web/20090517140029/http://anthonystewarthead.electric-chi.com/&s=1366x768&v=1.2"},
		{"ia_upper_host", "http://ARCHIVE.ORG/", "org,archive)/"},
		{"ia_default_port", "http://www.archive.org:80/", "org,archive)/"},
		{"ia_https_port_80", "https://www.archive.org:80/", "org,archive:80)/"},
		{"ia_http_port_443", "http://www.archive.org:443/", "org,archive:443)/"},
		{"ia_https_default_port", "https://www.archive.org:443/", "org,archive)/"},
		{"ia_www_digits", "http://www34.archive.org/index.html?b=a&b=b&a=b", "org,archive)/index.html?a=b&b=a&b=b"},
		{"ia_www_no_dot", "http://www2foo.com/", "com,www2foo)/"},
		{"google_percent", "http://host/%25%32%35", "host)/%25"},
		{"google_ip_decimal", "http://3279880203/blah", "11,0,127,195)/blah"},
		{"google_ip_short", "http://10.0.258/", "2,1,0,10)/"},
		{"google_dot_segments", "http://www.google.com/blah/..", "com,google)/"},
		{"google_no_scheme", "www.google.com", "com,google)/"},
		{"google_fragment", "http://www.evil.com/blah#frag", "com,evil)/blah"},
		{"google_trailing_dots", "http://www.google.com.../", "com,google)/"},
		{"google_controls", "http://www.google.com/foo\tbar\rbaz\n2", "com,google)/foobarbaz2"},
		{"google_escapes", "http://host%23.com/%257Ea%2521b%2540c%2523d%2524e%25f%255E00%252611%252A22%252833%252944_55%252B",
			"com,host%23)/~a!b@c%23d$e%25f^00&11*22(33)44_55+"},
		{"google_idn", "http://B\u00fccher.ch:8080/", "ch,xn--bcher-kva:8080)/"},
		{"google_two_slashes", "http://host.com//twoslashes?more//slashes", "com,host)/twoslashes?more//slashes"},
		{"handy_many_slashes", "http:////////////////www.vikings.com", "com,vikings)/"},
		{"handy_double_scheme", "http://https://order.1and1.com", "com,1and1,order)/"},
		{"handy_colon_no_port", "http://mineral.galleries.com:/minerals/silicate/chabazit/chabazit.htm", "com,galleries,mineral)/minerals/silicate/chabazit/chabazit.htm"},
		{"cc_schema_example", "https://www.example.com/path/index.html", "com,example)/path/index.html"},
		{"cc_robots", "https://www.commoncrawl.org/robots.txt", "org,commoncrawl)/robots.txt"},
		{"cc_robots_port", "http://example.com:8080/robots.txt", "com,example:8080)/robots.txt"},
		{"cc_robots_ip", "http://192.0.2.7/robots.txt", "7,2,0,192)/robots.txt"},
		{"cc_robots_upper_path", "http://example.com/Robots.TXT", "com,example)/robots.txt"},
	} {
		if got := SURT(tc.url); got != tc.want {
			t.Errorf("%s: SURT(%q) = %q, want %q", tc.name, tc.url, got, tc.want)
		}
	}
}

func TestHostKey(t *testing.T) {
	for host, want := range map[string]string{
		"example.com": "com,example", "www.example.com": "com,example", "www12.example.com": "com,example",
		"www2foo.com": "com,www2foo", "blog.example.co.uk": "uk,co,example,blog", "192.0.2.7": "7,2,0,192", "www.com": "com",
	} {
		if got := HostKey(host); got != want {
			t.Errorf("HostKey(%q) = %q, want %q", host, got, want)
		}
	}
}
