package pipeline

import (
	"net"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
)

// Files of a folder or a tar archive that hold no container format are
// robots.txt files named by the host they came from, in the layouts
// mirroring tools write:
//
//	example.com, example.com.txt             one file per host
//	example.com-robots.txt (.robots.txt, _robots.txt)
//	example.com/robots.txt                   wget, httrack, scrapy mirrors: the folder names the host
//
// A name is a host only when it would be one in a URL: IDNA (UTS #46,
// lookup profile, so upper case and Unicode are normalised and spaces,
// underscores and leading hyphens refused), at least two labels, and a
// top-level domain that the public suffix list's ICANN section holds or
// that RFC 2606, 6761 and 7686 reserve (example, test, invalid, localhost,
// onion); or an IPv4 address. So README.md's neighbours, favicon.ico,
// requirements.txt and notes.txt are not sites. README.md itself passes
// those rules (.md is Moldova's domain), as do the other documents a
// repository keeps beside its data, so two-label .md names whose first
// label is such a document's (readme, license, changelog, ...) are refused
// too; point.md stays a host.
//
// Hidden files and folders (a name starting with ".": .git, .DS_Store,
// macOS's ._ files) are never read from a folder or a tar, whatever their
// names.

// hostFromFileName returns the host a file named by host stands for, from
// its path (slash- or OS-separated, as found in a folder or a tar), and
// whether the name is one.
func hostFromFileName(name string) (string, bool) {
	// Backslashes too: archives written on Windows use them.
	p := strings.TrimRight(strings.ReplaceAll(filepath.ToSlash(name), `\`, "/"), "/")
	b := path.Base(p)
	if strings.EqualFold(b, "robots.txt") {
		dir := path.Dir(p)
		if dir == "." || dir == "/" {
			return "", false
		}
		return validHost(path.Base(dir))
	}
	for _, suf := range []string{"-robots.txt", ".robots.txt", "_robots.txt", ".txt"} {
		if len(b) > len(suf) && strings.EqualFold(b[len(b)-len(suf):], suf) {
			b = b[:len(b)-len(suf)]
			break
		}
	}
	return validHost(b)
}

// reservedTLDs are the top-level names set aside for tests, examples and
// special use, which the public suffix list leaves out.
var reservedTLDs = map[string]bool{"example": true, "test": true, "invalid": true, "localhost": true, "onion": true}

// documentNames are first labels of the documents that sit beside data in a
// folder and whose .md names are also valid host names.
var documentNames = map[string]bool{
	"readme": true, "license": true, "licence": true, "changelog": true, "changes": true, "contributing": true,
	"copying": true, "authors": true, "notice": true, "todo": true, "security": true, "history": true, "install": true,
}

// validHost returns s as an ASCII host in lower case, and whether it is a
// host name robotstat takes from a file name (see above).
func validHost(s string) (string, bool) {
	s = strings.TrimSuffix(s, ".")
	if ip := net.ParseIP(s); ip != nil && ip.To4() != nil && strings.Count(s, ".") == 3 {
		return s, true
	}
	if !utf8.ValidString(s) {
		return "", false // IDNA would read bad bytes as U+FFFD and invent a host
	}
	h, err := idna.Lookup.ToASCII(s)
	if err != nil || len(h) > 253 {
		return "", false
	}
	labels := strings.Split(h, ".")
	if len(labels) < 2 {
		return "", false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 {
			return "", false
		}
	}
	tld := labels[len(labels)-1]
	if strings.Trim(tld, "0123456789") == "" {
		return "", false // a number, not a name: 10.0.0 or a version like 1.2
	}
	if _, icann := publicsuffix.PublicSuffix(tld); !icann && !reservedTLDs[tld] {
		return "", false
	}
	if len(labels) == 2 && tld == "md" && documentNames[labels[0]] {
		return "", false
	}
	return h, true
}

// hiddenPath reports a path with an element starting with "." (other than
// "." and ".." themselves): a hidden file or a file in a hidden folder.
func hiddenPath(name string) bool {
	for _, e := range strings.Split(filepath.ToSlash(name), "/") {
		if len(e) > 1 && e[0] == '.' && e != ".." {
			return true
		}
	}
	return false
}
