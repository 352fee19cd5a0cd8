package scan

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseResolve(t *testing.T) {
	r, err := ParseResolve([]string{"a.test=127.0.0.1:8080", "A.test:443=127.0.0.1:8443", "*:80=127.0.0.2:80", "*=127.0.0.3:1", "v6.test=[::1]:9"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ host, port, want string }{
		{"a.test", "80", "127.0.0.1:8080"},  // HOST= covers every port
		{"a.test", "443", "127.0.0.1:8443"}, // HOST:PORT= wins
		{"A.TEST", "443", "127.0.0.1:8443"}, // case-insensitive
		{"b.test", "80", "127.0.0.2:80"},    // *:PORT
		{"b.test", "443", "127.0.0.3:1"},    // *
		{"v6.test", "443", "[::1]:9"},
	} {
		if got, _ := r.lookup(tc.host, tc.port); got != tc.want {
			t.Errorf("%s:%s -> %q, want %q", tc.host, tc.port, got, tc.want)
		}
	}
	if _, ok := (Resolve{}).lookup("a.test", "80"); ok {
		t.Error("the zero Resolve maps a name")
	}
	for _, bad := range []string{"a.test", "a.test=localhost:80", "a.test=127.0.0.1", "a.test:0=127.0.0.1:80", "=127.0.0.1:80", "a.test=127.0.0.1:99999"} {
		if _, err := ParseResolve([]string{bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestNormalizeHost(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Example.COM", "example.com"},
		{"example.com.", "example.com"},
		{" bücher.example ", "xn--bcher-kva.example"},
		{"127.0.0.1", "127.0.0.1"},
		{"[::1]", "::1"},
	} {
		if got, err := NormalizeHost(tc.in); err != nil || got != tc.want {
			t.Errorf("%q -> %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "https://example.com", "example.com:8080", "example.com/robots.txt", "a b", "exa_mple..com"} {
		if _, err := NormalizeHost(bad); !errors.Is(err, ErrHost) {
			t.Errorf("%q: %v, want ErrHost", bad, err)
		}
	}
}

func TestReadSites(t *testing.T) {
	in := "\uFEFFrank,domain\n1,google.com\n\n# comment\n2,Bad Host\n3,FACEBOOK.com\n4,a.example\n"
	var bad []int
	got, err := ReadSites(strings.NewReader(in), 2, func(line int, err error) { bad = append(bad, line) })
	if err != nil || strings.Join(got, ",") != "google.com,facebook.com" || len(bad) != 1 || bad[0] != 5 {
		t.Errorf("top 2: %v %v (bad lines %v)", got, err, bad)
	}
	if got, _ := ReadSites(strings.NewReader(in), 0, nil); len(got) != 3 {
		t.Errorf("all: %v", got)
	}
	if _, err := ReadSites(strings.NewReader("1,a.example\nnot a row\n"), 0, nil); err == nil {
		t.Error("a line that is not rank,domain was accepted")
	}
}

func TestParseTimeouts(t *testing.T) {
	if got, _ := ParseTimeouts(""); got != DefaultTimeouts {
		t.Errorf("default %+v", got)
	}
	got, err := ParseTimeouts("5s")
	if err != nil || got.Total != 5*time.Second || got.Connect != 5*time.Second || got.Header != 5*time.Second {
		t.Errorf("5s: %+v %v", got, err)
	}
	got, err = ParseTimeouts("connect=1s,header=2s")
	if err != nil || got.Connect != time.Second || got.Header != 2*time.Second || got.Total != DefaultTimeouts.Total {
		t.Errorf("pairs: %+v %v", got, err)
	}
	for _, bad := range []string{"soon", "-1s", "connect=0s", "idle=1s"} {
		if _, err := ParseTimeouts(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestValidate(t *testing.T) {
	ok := DefaultConfig()
	ok.Dir, ok.Crawl, ok.Software = "d", "c", "s"
	ok.UserAgent = "robotstat/1 (+https://example.org/bot)"
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		field string
		edit  func(c *Config)
	}{
		{"Dir", func(c *Config) { c.Dir = "" }},
		{"Schemes", func(c *Config) { c.Schemes = []string{"ftp"} }},
		{"Schemes", func(c *Config) { c.Schemes = []string{"http", "http"} }},
		{"Concurrency", func(c *Config) { c.Concurrency = 0 }},
		{"UserAgent", func(c *Config) { c.UserAgent = "robotstat/1" }},            // no contact
		{"UserAgent", func(c *Config) { c.UserAgent = "(+https://example.org)" }}, // no product token
		{"UserAgent", func(c *Config) { c.UserAgent = "bot/1 (+https://x)\r\nX: y" }},
		{"CountLimit", func(c *Config) { c.CountLimit = 10 }},
		{"Timeouts", func(c *Config) { c.Timeouts.TLS = 0 }},
	} {
		c := ok
		tc.edit(&c)
		var ce *ConfigError
		if err := c.Validate(); !errors.As(err, &ce) || ce.Field != tc.field {
			t.Errorf("%s: %v", tc.field, err)
		}
	}
}
