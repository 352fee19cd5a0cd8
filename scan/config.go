package scan

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/robotstat/robotstat/parse"
)

// Config shapes a scan. Start from DefaultConfig; Validate reports the first
// field that is wrong. A Config is read, never changed, by Run.
type Config struct {
	// Dir receives the WARC files (created if missing) and holds the
	// files of earlier runs that Run resumes from.
	Dir string
	// Schemes are tried in order for each host; a failed fetch of one
	// moves on to the next (see the package doc).
	Schemes []string
	// UserAgent is sent with every request: a product token and a
	// contact URL, e.g. "robotstat/0.1.0 (+https://github.com/robotstat/robotstat)".
	UserAgent string
	// Concurrency is how many hosts are fetched at once.
	Concurrency int
	// Timeouts bound each fetch.
	Timeouts Timeouts
	// MaxRedirects is how many consecutive redirects are followed
	// (RFC 9309 section 2.3.1.2: at least five).
	MaxRedirects int
	// BodyLimit is how many bytes of a body are kept (section 2.5: at
	// least 500 KiB).
	BodyLimit int64
	// CountLimit is how far a longer body is read, without being kept, to
	// learn its true size.
	CountLimit int64
	// Resolve points host names at addresses, as curl's --resolve does.
	// An address it maps is fetched whatever it is: the user chose it.
	Resolve Resolve
	// AllowPrivate fetches addresses that are not of the public internet
	// (loopback, private, link-local, ...: blockedAddr) when they come
	// from the DNS, a host list or a redirect. Off, such a fetch fails
	// with KindBlocked and nothing is sent.
	AllowPrivate bool
	// RootCAs, when set, are the certificate authorities trusted instead
	// of the system's (tests trust their own).
	RootCAs *x509.CertPool
	// FileSize is the size at which a WARC file is closed and the next
	// one started.
	FileSize int64
	// Crawl is the warcinfo isPartOf: the crawl name robotstat analyze
	// gives the captures.
	Crawl string
	// Software names the writer in warcinfo, e.g. "robotstat/0.1.0".
	Software string
	// Options is the command line (or what stands for it) warcinfo
	// records.
	Options string
	// Progress, when set, receives a progress bar (hosts, hosts/s, ETA).
	Progress io.Writer

	// lookup resolves names not in Resolve; nil is net.DefaultResolver.
	// Tests set it so that no query leaves the machine.
	lookup func(ctx context.Context, host string) ([]string, error)
	// now is the clock; nil is time.Now.
	now func() time.Time
}

// Timeouts bound the phases of one fetch. Total covers the whole fetch,
// body included; the others are capped by it.
type Timeouts struct {
	Connect time.Duration // TCP connect
	TLS     time.Duration // TLS handshake
	Header  time.Duration // from the request sent to the response header read
	Total   time.Duration
}

// Defaults.
const (
	DefaultConcurrency = 32
	DefaultBodyLimit   = 512000   // RFC 9309 section 2.5: 500 KiB
	DefaultCountLimit  = 10 << 20 // read on to 10 MiB to learn a body's size
	DefaultFileSize    = 1 << 30
	DefaultRedirects   = parse.MaxRedirects // RFC 9309 section 2.3.1.2: at least five
)

// DefaultTimeouts are the timeouts of DefaultConfig.
var DefaultTimeouts = Timeouts{Connect: 10 * time.Second, TLS: 10 * time.Second, Header: 20 * time.Second, Total: 30 * time.Second}

// DefaultConfig returns a Config with every default set; Dir, UserAgent,
// Software and Crawl are left for the caller.
func DefaultConfig() Config {
	return Config{
		Schemes:      []string{"https", "http"},
		Concurrency:  DefaultConcurrency,
		Timeouts:     DefaultTimeouts,
		MaxRedirects: DefaultRedirects,
		BodyLimit:    DefaultBodyLimit,
		CountLimit:   DefaultCountLimit,
		FileSize:     DefaultFileSize,
	}
}

// ConfigError names the Config field that is wrong.
type ConfigError struct {
	Field string
	Msg   string
}

func (e *ConfigError) Error() string { return e.Field + ": " + e.Msg }

// Validate reports the first field that is wrong.
func (c *Config) Validate() error {
	bad := func(field, format string, args ...any) error {
		return &ConfigError{Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case c.Dir == "":
		return bad("Dir", "empty")
	case len(c.Schemes) == 0:
		return bad("Schemes", "empty")
	case c.Concurrency < 1:
		return bad("Concurrency", "%d, want at least 1", c.Concurrency)
	case c.MaxRedirects < 0:
		return bad("MaxRedirects", "%d, want 0 or more", c.MaxRedirects)
	case c.BodyLimit < 1:
		return bad("BodyLimit", "%d, want at least 1", c.BodyLimit)
	case c.CountLimit < c.BodyLimit:
		return bad("CountLimit", "%d is below BodyLimit %d", c.CountLimit, c.BodyLimit)
	case c.FileSize < 1<<10:
		return bad("FileSize", "%d, want at least 1024", c.FileSize)
	case c.Crawl == "":
		return bad("Crawl", "empty")
	case c.Software == "":
		return bad("Software", "empty")
	}
	if err := checkUserAgent(c.UserAgent); err != nil {
		return bad("UserAgent", "%v", err)
	}
	seen := map[string]bool{}
	for _, s := range c.Schemes {
		if s != "https" && s != "http" {
			return bad("Schemes", "%q, want https or http", s)
		}
		if seen[s] {
			return bad("Schemes", "%q twice", s)
		}
		seen[s] = true
	}
	t := c.Timeouts
	if t.Connect <= 0 || t.TLS <= 0 || t.Header <= 0 || t.Total <= 0 {
		return bad("Timeouts", "every timeout must be positive, got %+v", t)
	}
	return nil
}

// checkUserAgent wants a product token (RFC 9110 section 10.1.5) first and
// a contact URL, so that a site operator who finds it in a log can reach the
// operator (RFC 9309 section 2.2.1 asks crawlers to identify themselves).
func checkUserAgent(ua string) error {
	if ua == "" {
		return fmt.Errorf("empty")
	}
	tok, _, _ := strings.Cut(ua, " ")
	tok, _, _ = strings.Cut(tok, "/")
	if tok == "" {
		return fmt.Errorf("%q does not start with a product token", ua)
	}
	for _, r := range tok {
		if r <= ' ' || r >= 0x7f || strings.ContainsRune("()<>@,;:\\\"/[]?={}", r) {
			return fmt.Errorf("%q does not start with a product token", ua)
		}
	}
	if !strings.Contains(ua, "http://") && !strings.Contains(ua, "https://") && !strings.Contains(ua, "@") {
		return fmt.Errorf("%q has no contact URL (e.g. \"(+https://example.org/bot)\")", ua)
	}
	for _, r := range ua {
		if r < ' ' || r == 0x7f {
			return fmt.Errorf("%q holds a control character", ua)
		}
	}
	return nil
}

// TrustPEM returns the system's certificate authorities (none when the
// system's cannot be read) and those of the PEM certificates in pem, for
// Config.RootCAs: a test server's CA; an error when pem holds none.
func TrustPEM(pem []byte) (*x509.CertPool, error) {
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, errors.New("holds no PEM certificate")
	}
	return pool, nil
}

// ParseTimeouts reads --timeout: a duration for the total, the phases then
// taking the defaults capped by it ("30s"), or name=duration pairs for
// connect, tls, header and total ("connect=5s,header=10s,total=20s").
func ParseTimeouts(s string) (Timeouts, error) {
	t := DefaultTimeouts
	if s == "" {
		return t, nil
	}
	if !strings.Contains(s, "=") {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return t, fmt.Errorf("%q is not a positive duration", s)
		}
		t.Total = d
		t.Connect, t.TLS, t.Header = min(t.Connect, d), min(t.TLS, d), min(t.Header, d)
		return t, nil
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, _ := strings.Cut(kv, "=")
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return t, fmt.Errorf("%s: %q is not a positive duration", k, v)
		}
		switch k {
		case "connect":
			t.Connect = d
		case "tls":
			t.TLS = d
		case "header":
			t.Header = d
		case "total":
			t.Total = d
		default:
			return t, fmt.Errorf("unknown timeout %q (want connect, tls, header or total)", k)
		}
	}
	return t, nil
}
