package stats

import (
	"net/netip"

	"github.com/robotstat/robotstat/internal/weburl"
	"golang.org/x/net/publicsuffix"
)

// Site identifies the site a capture belongs to. It is a plain value.
type Site struct {
	// Scheme is the URL scheme in lower case ("http", "https"); empty when
	// the URL has none.
	Scheme string
	// Host is the host name in lower case, in its ASCII (IDNA "punycode")
	// form, without port, brackets or a trailing dot. Tranco and the Common
	// Crawl index write hosts the same way, so joins work.
	Host string
	// Port is the port in the URL, else the scheme's default (80 for http,
	// 443 for https), else 0.
	Port int32
	// RegisteredDomain is Host's eTLD+1 by the public suffix list
	// (golang.org/x/net/publicsuffix, ICANN and private sections); empty
	// for an IP address, a public suffix itself or a single label.
	RegisteredDomain string
}

// ParseSite extracts the site of an absolute URL. It never fails: parts it
// cannot find are left empty. For an ASCII host already in lower case the
// strings alias rawURL and nothing is allocated.
func ParseSite(rawURL string) Site {
	var s Site
	var port string
	s.Scheme, s.Host, port = weburl.Split(rawURL)
	host := s.Host
	if n, ok := atoi32(port); ok {
		s.Port = n
	} else {
		switch s.Scheme {
		case "http":
			s.Port = 80
		case "https":
			s.Port = 443
		}
	}
	if host != "" {
		if !looksLikeIP(host) {
			if d, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
				s.RegisteredDomain = d
			}
		}
	}
	return s
}

// looksLikeIP reports an IP literal without allocating an error for the
// common case of a name: IPv6 has a colon, IPv4 only digits and dots.
func looksLikeIP(h string) bool {
	digits := true
	for i := 0; i < len(h); i++ {
		c := h[i]
		if c == ':' {
			return true
		}
		if c != '.' && (c < '0' || c > '9') {
			digits = false
		}
	}
	if !digits {
		return false
	}
	_, err := netip.ParseAddr(h)
	return err == nil
}

func atoi32(s string) (int32, bool) {
	if s == "" || len(s) > 5 {
		return 0, false
	}
	n := int32(0)
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int32(s[i]-'0')
	}
	return n, n <= 65535
}

// ResolveLocation resolves a Location header against the URL it answered;
// it returns loc unchanged when either does not parse (weburl.ResolveLocation,
// the one definition the sites step and the panel follow too).
func ResolveLocation(base, loc string) string { return weburl.ResolveLocation(base, loc) }
