package scan

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// Resolve maps names (and optionally ports) to addresses, as curl's
// --resolve does, so that a scan can be pointed at a local server. A rule is
//
//	HOST=ADDR:PORT        every port of HOST goes to ADDR:PORT
//	HOST:PORT=ADDR:PORT   only that port
//	*=ADDR:PORT, *:PORT=ADDR:PORT   every host (a rule naming the host wins)
//
// HOST is matched case-insensitively. The zero Resolve maps nothing. A
// Resolve is not changed after ParseResolve and is safe for concurrent use.
type Resolve struct {
	rules map[string]string // "host:port", "host:", "*:port", "*:" -> addr
}

// ParseResolve reads rules in the form above.
func ParseResolve(rules []string) (Resolve, error) {
	r := Resolve{rules: map[string]string{}}
	for _, rule := range rules {
		from, to, ok := strings.Cut(rule, "=")
		if !ok {
			return r, fmt.Errorf("%q is not HOST[:PORT]=ADDR:PORT", rule)
		}
		ah, ap, err := net.SplitHostPort(to)
		if err != nil || net.ParseIP(ah) == nil {
			return r, fmt.Errorf("%q: %q is not IP:PORT", rule, to)
		}
		if n, err := strconv.Atoi(ap); err != nil || n < 1 || n > 65535 {
			return r, fmt.Errorf("%q: bad port %q", rule, ap)
		}
		host, port := from, ""
		if h, p, err := net.SplitHostPort(from); err == nil {
			host, port = h, p
			if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
				return r, fmt.Errorf("%q: bad port %q", rule, p)
			}
		}
		if host == "" {
			return r, fmt.Errorf("%q names no host", rule)
		}
		r.rules[strings.ToLower(host)+":"+port] = to
	}
	return r, nil
}

// lookup returns the address host:port is pointed at.
func (r Resolve) lookup(host, port string) (string, bool) {
	if len(r.rules) == 0 {
		return "", false
	}
	host = strings.ToLower(host)
	for _, k := range [...]string{host + ":" + port, host + ":", "*:" + port, "*:"} {
		if a, ok := r.rules[k]; ok {
			return a, true
		}
	}
	return "", false
}

// Len is the number of rules.
func (r Resolve) Len() int { return len(r.rules) }
