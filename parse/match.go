package parse

import "bytes"

// Pattern matching, RFC 9309 §2.2.2-§2.2.3.
//
// A normalised pattern is a sequence of literal segments separated by "*"
// (any run of octets, including none), optionally ending in "$" (the path
// must end there). Without "$" a pattern matches a prefix of the path, which
// is the same as a pattern with an implicit trailing "*".
//
// Worst case. There is no regexp and no backtracking: the first segment must
// be a prefix of the path, each middle segment is found at its leftmost
// occurrence after the previous one, and the last segment, when the pattern
// is anchored with "$", must be a suffix of what is left. Leftmost placement
// is optimal because "*" is the only metacharacter: placing a segment earlier
// never leaves less room for the rest. So each segment is searched for once,
// and one match costs at most O(len(path) * len(pattern)) octet comparisons
// (bytes.Index's bound), in practice O(len(path) + len(pattern)).
// A pattern such as "/*a*a*a*a*a*b" against a path of 100,000 "a"s costs six
// searches, not the exponential blow-up of a backtracking matcher.

// matchPattern reports whether the normalised pattern pat (without its
// trailing "$", which anchored says was there) matches the normalised path.
func matchPattern(pat, path []byte, anchored bool) bool {
	i := bytes.IndexByte(pat, '*')
	if i < 0 {
		if anchored {
			return bytes.Equal(pat, path)
		}
		return bytes.HasPrefix(path, pat)
	}
	if !bytes.HasPrefix(path, pat[:i]) {
		return false
	}
	path = path[i:]
	pat = pat[i+1:]
	for {
		for len(pat) > 0 && pat[0] == '*' {
			pat = pat[1:]
		}
		j := bytes.IndexByte(pat, '*')
		if j < 0 {
			if anchored {
				return bytes.HasSuffix(path, pat)
			}
			return bytes.Contains(path, pat)
		}
		k := bytes.Index(path, pat[:j])
		if k < 0 {
			return false
		}
		path = path[k+j:]
		pat = pat[j+1:]
	}
}
