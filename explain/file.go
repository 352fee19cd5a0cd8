package explain

import (
	"github.com/robotstat/robotstat/lint"
	"github.com/robotstat/robotstat/parse"
)

// File describes the robots.txt as a whole.
type File struct {
	// Read reports that the body was parsed: false for a 4xx or 5xx, whose
	// body is not a robots.txt (RFC 9309 §2.3.1).
	Read bool `json:"read"`
	// Size is the body's length in bytes; Parsed how much of it was parsed
	// (RFC 9309 §2.5: at least the first 500 KiB).
	Size   int `json:"size"`
	Parsed int `json:"parsed"`
	Lines  int `json:"lines"`
	// Groups and Rules count the file's groups and their allow and
	// disallow lines.
	Groups int `json:"groups"`
	Rules  int `json:"rules"`
	// Diagnostics are lint's findings, in file order.
	Diagnostics []Diagnostic `json:"diagnostics"`
	// Records are the records that are not part of RFC 9309's matching
	// (§2.2.4): sitemaps, crawl-delay, host, content-signal, ... and keys
	// robotstat does not know, in file order.
	Records []Record `json:"records"`
}

// Diagnostic is one of lint's findings.
type Diagnostic struct {
	// Line is 0 for a finding about the body as a whole.
	Line    int    `json:"line"`
	Code    string `json:"code"`
	Message string `json:"message"`
	// Text is what the finding quotes (the line, the key or the value, at
	// most lint.ValueLimit bytes).
	Text string `json:"text,omitempty"`
	// ReadAs is how a line read through a leniency (a typo, a missing
	// colon) was read: "disallow: /a".
	ReadAs string `json:"read_as,omitempty"`
}

// Record is a record outside RFC 9309's matching.
type Record struct {
	Line int `json:"line"`
	// Key is the key as written, Name its normalised form.
	Key  string `json:"key"`
	Name string `json:"name"`
	// Kind is parse.ClassifyKey's: extension or unknown.
	Kind  string `json:"kind"`
	Value string `json:"value"`
	// GroupLine is the line of the group the record sits in, 0 outside
	// any group and for a sitemap, which is global.
	GroupLine int `json:"group_line"`
	// Note says what the record is for.
	Note string `json:"note"`
}

// recordNotes say what the common non-standard records are for. None of them
// changes a decision: RFC 9309 §2.2.4 lets crawlers interpret other records,
// and matching ignores them.
var recordNotes = map[string]string{
	"sitemap":        "a sitemap's URL; global, outside any group (RFC 9309 §2.2.4)",
	"crawl-delay":    "seconds between requests for the crawlers that read it (not RFC 9309; Google ignores it)",
	"host":           "the preferred host name for the crawlers that read it (Yandex's; not RFC 9309)",
	"content-signal": "Content Signals (contentsignals.org): search, ai-input and ai-train preferences; not an allow or disallow rule",
	"content-usage":  "IETF AI Preferences usage (draft-ietf-aipref-attach); not an allow or disallow rule",
	"clean-param":    "URL parameters to ignore, for the crawlers that read it (Yandex's; not RFC 9309)",
}

// recorder is the parse.Handler that keeps what File needs beyond the
// compiled Robots and the Linter: the non-standard records, and how lines
// read through a leniency were read.
type recorder struct {
	records []Record
	readAs  map[int]string
	groupOf []int // per record, the group index (-1 outside any)
	// ruleLines holds where each allow and disallow line is in the body,
	// by line number, so that a rule is shown as written.
	ruleLines map[int][2]int
	pending   int // the line of the rule whose Line event is next
}

func (h *recorder) Start(*parse.FileInfo) {
	h.records, h.groupOf = nil, nil
	h.readAs = map[int]string{}
	h.ruleLines = map[int][2]int{}
	h.pending = 0
}

func (h *recorder) rule(e *parse.Entry) {
	h.lenient(e)
	h.pending = e.Line
}

func (h *recorder) lenient(e *parse.Entry) {
	if e.Flags&(parse.LineTypo|parse.LineMissingColon) != 0 {
		h.readAs[e.Line] = string(e.Name) + ": " + quote(e.Value)
	}
}

func (h *recorder) record(e *parse.Entry) {
	h.lenient(e)
	kind := parse.ClassifyKey(e)
	if kind == parse.KindStandard {
		return
	}
	name := string(e.Name)
	note := recordNotes[name]
	if note == "" {
		note = "a known non-standard record; matching ignores it (RFC 9309 §2.2.4)"
		if kind == parse.KindUnknown {
			note = "a key robotstat does not know; ignored"
		}
	}
	h.records = append(h.records, Record{Line: e.Line, Key: quote(e.RawKey), Name: name, Kind: kind.String(), Value: quote(e.Value), Note: note})
	g := e.Group
	if e.Key == parse.KeySitemap {
		g = -1 // global, whatever group it sits in (RFC 9309 §2.2.4)
	}
	h.groupOf = append(h.groupOf, g)
}

func (h *recorder) UserAgent(e *parse.Entry) { h.lenient(e) }
func (h *recorder) Allow(e *parse.Entry)     { h.rule(e) }
func (h *recorder) Disallow(e *parse.Entry)  { h.rule(e) }
func (h *recorder) Sitemap(e *parse.Entry)   { h.record(e) }
func (h *recorder) Other(e *parse.Entry)     { h.record(e) }
func (h *recorder) Line(l *parse.LineInfo) {
	if l.Num == h.pending {
		h.ruleLines[l.Num] = [2]int{l.Offset, l.Len}
		h.pending = 0
	}
}
func (h *recorder) End(*parse.LineCounts) {}

// asWritten fills in how the rules of d are written in body and, for a
// line read through a leniency, how it was read.
func (h *recorder) asWritten(d *Decision, body []byte) {
	fill := func(r *Rule) {
		if sp, ok := h.ruleLines[r.Line]; ok && sp[0] >= 0 && sp[0]+sp[1] <= len(body) {
			r.Text = quote(body[sp[0] : sp[0]+sp[1]])
		}
		r.ReadAs = h.readAs[r.Line]
	}
	if d.Rule != nil {
		fill(d.Rule)
	}
	for i := range d.Matched {
		fill(&d.Matched[i])
	}
}

// quote is b as a string, cut to lint.ValueLimit bytes: a record's value is
// shown, not kept whole.
func quote(b []byte) string { return string(b[:min(len(b), lint.ValueLimit)]) }

// newFile describes the parse that filled r, l and h.
func newFile(r *parse.Robots, l *lint.Linter, h *recorder, read bool) File {
	info, counts := r.Info()
	f := File{Read: read, Size: info.Size, Parsed: info.Parsed, Lines: counts.Lines,
		Groups: len(r.Groups()), Rules: len(r.Rules()),
		Diagnostics: []Diagnostic{}, Records: []Record{}}
	for _, d := range l.Diagnostics() {
		f.Diagnostics = append(f.Diagnostics, Diagnostic{Line: d.Line, Code: d.Code, Message: lint.Message(d.Code),
			Text: string(d.Value), ReadAs: h.readAs[d.Line]})
	}
	groups := r.Groups()
	for i, rec := range h.records {
		if g := h.groupOf[i]; g >= 0 && g < len(groups) {
			rec.GroupLine = groups[g].Line
		}
		f.Records = append(f.Records, rec)
	}
	return f
}
