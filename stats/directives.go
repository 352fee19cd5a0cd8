package stats

import (
	"github.com/robotstat/robotstat/internal/ascii"
	"github.com/robotstat/robotstat/schema"
)

// Directives: one row per capture and directive key. The key is the key as
// written, lower-cased, with runs of white space folded to one space, so
// "User-Agent" and "user-agent" are one key while the accepted misspelling
// "user agent" or "dissallow" stays its own key, with the key it is read as
// in Canonical.

// isSignalKey reports whether a canonical key carries AI-use preferences in
// key=value form: Cloudflare's Content-Signal
// (contentsignals.org) and the IETF AI Preferences working group's
// Content-Usage (draft-ietf-aipref-attach).
func isSignalKey(name []byte) bool {
	s := string(name)
	return s == "content-signal" || s == "content-usage"
}

// ParseSignals calls add for each pair of a Content-Signal or Content-Usage
// value. Items are separated by commas (and, for Content-Usage's "path
// vocabulary" form, by white space); an item with "=" is key=value with
// both sides trimmed (the directives table lower-cases the key); an item
// without is a bare value with an empty key ("/news/" in
// "Content-Usage: /news/ train-ai=n"). Empty items are skipped. key and
// value alias v.
func ParseSignals(v []byte, add func(key, value []byte)) {
	for len(v) > 0 {
		// One comma-separated item.
		end := 0
		for end < len(v) && v[end] != ',' {
			end++
		}
		item := trimSpaceBytes(v[:end])
		if end < len(v) {
			v = v[end+1:]
		} else {
			v = nil
		}
		for len(item) > 0 {
			eq := -1
			for i, c := range item {
				if c == '=' {
					eq = i
					break
				}
			}
			if eq < 0 {
				// Bare values, white-space separated.
				w := 0
				for w < len(item) && item[w] != ' ' && item[w] != '\t' {
					w++
				}
				add(nil, item[:w])
				item = trimSpaceBytes(item[w:])
				continue
			}
			key := trimSpaceBytes(item[:eq])
			// Words before the key's last word are bare values.
			for {
				w := -1
				for i, c := range key {
					if c == ' ' || c == '\t' {
						w = i
						break
					}
				}
				if w < 0 {
					break
				}
				add(nil, key[:w])
				key = trimSpaceBytes(key[w:])
			}
			val := trimSpaceBytes(item[eq+1:])
			// A value ends at white space; what follows is another item.
			w := 0
			for w < len(val) && val[w] != ' ' && val[w] != '\t' {
				w++
			}
			add(key, val[:w])
			item = trimSpaceBytes(val[w:])
		}
	}
}

// trimSpaceBytes trims RFC 9309's WS (space and tab) around a signal's
// items, keys and values.
func trimSpaceBytes(b []byte) []byte { return ascii.Trim(b, &ascii.WS) }

// appendDirectiveKey appends the directives-table key of a raw key: ASCII
// lower case with runs of white space folded to one space.
func appendDirectiveKey(dst, raw []byte) []byte {
	sp := false
	for _, c := range raw {
		if c == ' ' || c == '\t' {
			if !sp {
				dst = append(dst, ' ')
				sp = true
			}
			continue
		}
		sp = false
		dst = append(dst, ascii.Lower(c))
	}
	return dst
}

// directiveRows appends one directives row per distinct key of the file,
// with its Content-Signal / Content-Usage pairs.
func (a *Analyzer) directiveRows(k *capture, dst *schema.Batch) {
	col := &a.col
	for di := range col.dirs {
		d := &col.dirs[di]
		row := schema.DirectiveRow{
			Key: k.key, Directive: d.key, Count: d.count, FirstLine: d.firstLine,
			FirstValue: d.firstValue, Kind: d.kind, Canonical: d.canonical,
		}
		if d.signal {
			mark := dst.Signals.Mark()
			for _, s := range col.signals {
				if s.dir == int32(di) {
					dst.Signals.Append(schema.Signal{Key: s.key, Value: s.value})
				}
			}
			row.Signals = dst.Signals.Since(mark)
			if len(row.Signals) == 0 {
				row.Signals = []schema.Signal{}
			}
		}
		dst.Directives = append(dst.Directives, row)
	}
}
