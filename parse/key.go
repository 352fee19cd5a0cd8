package parse

// Key recognition. RFC 9309 §2.2 matches keys case-insensitively and exactly;
// Google's reference parser additionally accepts a handful of misspellings
// (leniency Google_typo_*) which we accept too and flag with LineTypo; we
// also fold "_", tabs and runs of white space in a key to "-", which Google
// does not (Deviation_key_separator in doc.go). Google
// also accepts any key that merely starts with a known key ("Disallowed:",
// "User-agents:"); we do not (Deviation_key_prefix in doc.go): such a line is
// an Other record named "disallowed".

// keyClass marks bytes that may appear in a key. RFC 9309 keys are ASCII
// words; we admit letters, digits, "-", "_" and "." and, inside the key,
// spaces and tabs ("user agent"). A "key" with any other byte (HTML, a URL
// before a colon) makes the line LineInvalid.
var keyClass = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-'a'+'A'] = true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	t['-'], t['_'], t['.'] = true, true, true
	// Only inside the key: validKey is handed it trimmed.
	t[' '], t['\t'] = true, true
	return t
}()

// normaliseKey appends the normalised form of raw to dst: ASCII lower case,
// each run of spaces, tabs and "_" folded to one "-". It reports whether the
// raw key used a separator other than "-" (so "user agent" and "user_agent"
// are recognised as user-agent but flagged as typos).
func normaliseKey(dst, raw []byte) ([]byte, bool) {
	folded := false
	sep := false
	for _, c := range raw {
		switch {
		case c == ' ' || c == '\t' || c == '_':
			if !sep {
				dst = append(dst, '-')
				sep = true
			}
			folded = true
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		if c == '-' {
			if sep {
				folded = true
				continue
			}
			sep = true
		} else {
			sep = false
		}
		dst = append(dst, c)
	}
	return dst, folded
}

// validKey reports whether raw (already trimmed) can be a key.
func validKey(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	for _, c := range raw {
		if !keyClass[c] {
			return false
		}
	}
	return true
}

// classifyKey returns the Key for a normalised key name (lower case, white
// space and "_" folded to "-") and whether the spelling is an accepted
// typo. A switch on string(name) compiles to comparisons without allocating
// or hashing.
func classifyKey(name []byte, folded bool) (Key, bool) {
	switch string(name) {
	case "user-agent":
		// "user agent" folds to this and is a typo Google accepts too
		// (Google_typo_useragent); "user_agent", "user\tagent" and
		// "user  agent" fold to it as well, which Google does not accept
		// (Deviation_key_separator).
		return KeyUserAgent, folded
	case "allow":
		return KeyAllow, folded
	case "disallow":
		return KeyDisallow, folded
	case "sitemap":
		return KeySitemap, folded
	case "useragent": // Google_typo_useragent
		return KeyUserAgent, true
	case "dissallow", "dissalow", "disalow", "diasllow", "disallaw": // Google_typo_dissallow and friends
		return KeyDisallow, true
	case "site-map": // Google_typo_site_map
		return KeySitemap, true
	}
	return KeyOther, false
}

// KeyKind classifies a normalised key name for statistics: the standard
// records of RFC 9309, the widely used extensions, typos of standard keys,
// and everything else.
type KeyKind uint8

const (
	KindUnknown KeyKind = iota
	KindStandard
	KindExtension
	KindTypo
)

func (k KeyKind) String() string {
	switch k {
	case KindStandard:
		return "standard"
	case KindExtension:
		return "extension"
	case KindTypo:
		return "typo"
	}
	return "unknown"
}

// extensions are the non-standard records seen in the wild that some crawler
// documents (RFC 9309 §2.2.4 allows crawlers to interpret other records).
// Sitemap is listed here too: it is an extension, not part of the protocol,
// even though the parser gives it its own event.
var extensions = map[string]struct{}{
	"sitemap":                  {},
	"crawl-delay":              {},
	"host":                     {},
	"clean-param":              {},
	"noindex":                  {},
	"nofollow":                 {},
	"noarchive":                {},
	"request-rate":             {},
	"visit-time":               {},
	"content-signal":           {},
	"content-usage":            {},
	"disallowaitraining":       {},
	"allowaitraining":          {},
	"disallow-ai-training":     {},
	"allow-ai-training":        {},
	"ai-training":              {},
	"preferred-host":           {},
	"indexpage":                {},
	"acap-crawler":             {},
	"acap-disallow-crawl":      {},
	"acap-allow-crawl":         {},
	"acap-disallow-index":      {},
	"acap-allow-index":         {},
	"acap-disallow-preserve":   {},
	"acap-disallow-present":    {},
	"acap-disallow-usecontext": {},
}

// ClassifyKey returns the kind of a record for statistics. e is the Entry as
// delivered to a Handler.
func ClassifyKey(e *Entry) KeyKind {
	if e.Flags&LineTypo != 0 {
		return KindTypo
	}
	switch e.Key {
	case KeyUserAgent, KeyAllow, KeyDisallow:
		return KindStandard
	}
	if isExtension(e.Name) {
		return KindExtension
	}
	return KindUnknown
}

// isExtension reports whether a normalised key name is in extensions. The
// string(name) conversion in the map index does not allocate.
func isExtension(name []byte) bool {
	_, ok := extensions[string(name)]
	return ok
}
