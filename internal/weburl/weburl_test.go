package weburl

import (
	"errors"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, tc := range []struct{ url, scheme, host, port string }{
		{"https://www.example.com/robots.txt", "https", "www.example.com", ""},
		{"HTTP://Example.COM:8080/robots.txt", "http", "example.com", "8080"},
		{"http://user:pw@example.com./x?y#z", "http", "example.com", ""},
		{"http://[2001:DB8::1]:81/robots.txt", "http", "2001:db8::1", "81"},
		{"https://bücher.example/robots.txt", "https", "xn--bcher-kva.example", ""},
		{"//example.org/robots.txt", "", "example.org", ""},
		{"example.org/robots.txt", "", "", ""},
		{"http://example.com:/robots.txt", "http", "example.com", ""},
		// Issue 26.5: bytes that are not UTF-8 became an invented host,
		// xn--bad-7t7sa.example.com.
		{"https://bad\xff\xfe.example.com/robots.txt", "https", "", ""},
	} {
		s, h, p := Split(tc.url)
		if s != tc.scheme || h != tc.host || p != tc.port {
			t.Errorf("Split(%q) = %q %q %q, want %q %q %q", tc.url, s, h, p, tc.scheme, tc.host, tc.port)
		}
	}
	if n := testing.AllocsPerRun(100, func() { Split("https://www.example.com/robots.txt") }); n != 0 {
		t.Errorf("Split allocates %v times for a lower-case ASCII URL", n)
	}
}

func TestNormalizeHost(t *testing.T) {
	for in, want := range map[string]string{
		"Example.COM.": "example.com", " bücher.example ": "xn--bcher-kva.example", "[2001:DB8::1]": "2001:db8::1", "192.0.2.1": "192.0.2.1",
	} {
		if got, err := NormalizeHost(in); err != nil || got != want {
			t.Errorf("NormalizeHost(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", ".", "https://example.com", "example.com/robots.txt", "example.com:8080", "a b.example", "bad\xff\xfe.example.com"} {
		if h, err := NormalizeHost(bad); !errors.Is(err, ErrHost) {
			t.Errorf("NormalizeHost(%q) = %q, %v; want ErrHost", bad, h, err)
		}
	}
}
