package stats

import (
	"strconv"
	"unsafe"

	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/schema"
)

// collector is robotstat's own parse.Handler: everything the compiled
// parse.Robots does not keep (comment-only lines, keys per group, crawl
// delays, directive keys and values, signals, sitemap lines, line flags).
// Groups are the parser's (parse.Entry.Group), so the collector's per-group
// numbers line up with parse.Robots' groups under either parse.Grouping.
type collector struct {
	in *interner
	// What the enabled tables need beyond the captures and groups rows:
	// Content-Signal pairs (directives, signals), sitemap lines
	// (sitemaps), other keys per group (groups). The diagnostics are
	// lint.Linter's.
	signalPairs, sitemapRows, groupKeys bool

	commentOnly int32
	nonstandard int32
	crawlDelay  bool

	// delays holds each group's first Crawl-delay, by group index.
	delays []struct {
		set bool
		v   float64
	}
	others []struct {
		group int32
		key   string
	}

	dirs     []dirAcc
	dirIndex map[string]int32
	keyBuf   []byte
	signals  []signalPair
	// stars[g] reports whether group g has a "User-agent: *" line.
	stars []bool

	sitemaps []struct {
		line int32
		url  string
	}

	// ruleValues hold every allow/disallow value (somesite's paths),
	// disallow values first (see verdict.Verdicter.Reset), as slices of valArena;
	// valAllow tells which span is an allow value.
	ruleValues [][]byte
	valArena   []byte
	valSpans   []int
	valAllow   []bool
}

// signalPair is one pair of a Content-Signal or Content-Usage line: its
// directive (index into dirs), line, group (-1 outside any) and the pair.
type signalPair struct {
	dir, line, group int32
	key, value       string
}

type dirAcc struct {
	key, canonical, kind, firstValue string
	count, firstLine                 int32
	signal                           bool
}

func (h *collector) Start(f *parse.FileInfo) {
	h.commentOnly, h.nonstandard, h.crawlDelay = 0, 0, false
	h.delays = h.delays[:0]
	h.others = h.others[:0]
	h.dirs = h.dirs[:0]
	if h.dirIndex == nil {
		h.dirIndex = make(map[string]int32, 16)
	}
	clear(h.dirIndex)
	h.signals = h.signals[:0]
	h.stars = h.stars[:0]
	h.sitemaps = h.sitemaps[:0]
	h.ruleValues = h.ruleValues[:0]
	h.valArena = h.valArena[:0]
	h.valSpans = h.valSpans[:0]
	h.valAllow = h.valAllow[:0]
}

// record accounts one key/value record in the directives table.
func (h *collector) record(e *parse.Entry) {
	kind := parse.ClassifyKey(e)
	if kind != parse.KindStandard {
		h.nonstandard++
	}
	h.keyBuf = appendDirectiveKey(h.keyBuf[:0], e.RawKey)
	i, ok := h.dirIndex[string(h.keyBuf)]
	if !ok {
		k := h.in.str(h.keyBuf)
		d := dirAcc{key: k, kind: kind.String(), firstLine: int32(e.Line), firstValue: h.in.capped(e.Value, schema.MaxValueBytes)}
		if kind != parse.KindUnknown {
			d.canonical = h.in.str(e.Name)
		}
		d.signal = isSignalKey(e.Name)
		i = int32(len(h.dirs))
		h.dirs = append(h.dirs, d)
		h.dirIndex[k] = i
	}
	d := &h.dirs[i]
	d.count++
	if d.signal && h.signalPairs {
		ParseSignals(e.Value, func(k, v []byte) {
			h.keyBuf = appendDirectiveKey(h.keyBuf[:0], k)
			h.signals = append(h.signals, signalPair{i, int32(e.Line), int32(e.Group), h.in.str(h.keyBuf), h.in.capped(v, schema.MaxValueBytes)})
		})
	}
}

func (h *collector) UserAgent(e *parse.Entry) {
	for len(h.delays) <= e.Group {
		h.delays = append(h.delays, struct {
			set bool
			v   float64
		}{})
	}
	h.record(e)
	for len(h.stars) <= e.Group {
		h.stars = append(h.stars, false)
	}
	if parse.IsStar(e.Value) {
		h.stars[e.Group] = true
	}
}

func (h *collector) rule(e *parse.Entry) {
	h.record(e)
	h.valArena = append(h.valArena, e.Value...)
	h.valSpans = append(h.valSpans, len(h.valArena))
	h.valAllow = append(h.valAllow, e.Key == parse.KeyAllow)
}

func (h *collector) Allow(e *parse.Entry)    { h.rule(e) }
func (h *collector) Disallow(e *parse.Entry) { h.rule(e) }

func (h *collector) Sitemap(e *parse.Entry) {
	h.record(e)
	h.other(e)
	if h.sitemapRows {
		h.sitemaps = append(h.sitemaps, struct {
			line int32
			url  string
		}{int32(e.Line), h.in.str(e.Value)})
	}
}

func (h *collector) Other(e *parse.Entry) {
	h.record(e)
	if string(e.Name) == "crawl-delay" {
		h.crawlDelay = true
		if e.Group >= 0 {
			d := &h.delays[e.Group]
			if !d.set {
				if v, ok := parseSeconds(e.Value); ok {
					d.set, d.v = true, v
				}
			}
		}
	}
	h.other(e)
}

// other records a non-rule key inside its group (groups.other_directives).
func (h *collector) other(e *parse.Entry) {
	if !h.groupKeys || e.Group < 0 {
		return
	}
	h.keyBuf = appendDirectiveKey(h.keyBuf[:0], e.RawKey)
	h.others = append(h.others, struct {
		group int32
		key   string
	}{int32(e.Group), h.in.str(h.keyBuf)})
}

func (h *collector) Line(l *parse.LineInfo) {
	f := l.Flags
	if f&parse.LineComment != 0 && f&(parse.LineDirective|parse.LineInvalid) == 0 {
		h.commentOnly++
	}
}

func (h *collector) End(*parse.LineCounts) {
	h.ruleValues = h.ruleValues[:0]
	for _, allow := range [...]bool{false, true} {
		start := 0
		for i, end := range h.valSpans {
			if h.valAllow[i] == allow {
				h.ruleValues = append(h.ruleValues, h.valArena[start:end:end])
			}
			start = end
		}
	}
}

// hasKey reports whether the file has a record whose canonical key is k.
func (h *collector) hasKey(k string) bool {
	for i := range h.dirs {
		if h.dirs[i].canonical == k {
			return true
		}
	}
	return false
}

// parseSeconds reads a Crawl-delay value: a non-negative decimal number of
// seconds ("10", "0.5"); anything else is not a delay.
func parseSeconds(v []byte) (float64, bool) {
	if len(v) == 0 || len(v) > 32 {
		return 0, false
	}
	for _, c := range v {
		if (c < '0' || c > '9') && c != '.' {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(unsafe.String(&v[0], len(v)), 64)
	if err != nil {
		return 0, false
	}
	return f, true
}
