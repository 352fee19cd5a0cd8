package parse

// Key says which record a key/value line is. The four keys of RFC 9309
// (user-agent, allow, disallow) and the sitemap extension (RFC 9309 §2.2.4)
// have their own value; every other key is KeyOther, with its name in
// Entry.Name.
type Key uint8

const (
	KeyOther Key = iota
	KeyUserAgent
	KeyAllow
	KeyDisallow
	KeySitemap
)

var keyNames = [...]string{
	KeyOther:     "other",
	KeyUserAgent: "user-agent",
	KeyAllow:     "allow",
	KeyDisallow:  "disallow",
	KeySitemap:   "sitemap",
}

// String returns the canonical lower-case key name ("other" for KeyOther).
func (k Key) String() string {
	if int(k) < len(keyNames) {
		return keyNames[k]
	}
	return "invalid"
}

// LineFlags describe one physical line of a robots.txt body. A line may have
// several flags (a directive with a trailing comment has LineDirective and
// LineComment).
type LineFlags uint16

const (
	// LineBlank: nothing but white space (RFC 9309 §2.2 emptyline).
	LineBlank LineFlags = 1 << iota
	// LineComment: the line holds a "#" comment (RFC 9309 §2.2.3), whole or
	// trailing.
	LineComment
	// LineDirective: the line is a key/value record (any key, known or not).
	LineDirective
	// LineTypo: the key was accepted as a known misspelling of a standard key
	// (leniency Google_typo_*; see doc.go).
	LineTypo
	// LineMissingColon: key and value were separated by white space instead
	// of ":" (leniency Google_missing_colon).
	LineMissingColon
	// LineTooLong: the line is longer than Options.LongLine bytes. It is
	// still parsed whole; see doc.go (Deviation_long_lines).
	LineTooLong
	// LineInvalidUTF8: the line is not valid UTF-8 (RFC 9309 §2.3 requires
	// UTF-8). It is still parsed; patterns are percent-encoded byte by byte.
	LineInvalidUTF8
	// LineControl: the line contains a NUL or another control character
	// other than tab (a sign of a binary body).
	LineControl
	// LineInvalid: a line that is neither blank, nor comment-only, nor a
	// key/value record (HTML, prose, a key with characters no key has).
	LineInvalid
	// LineTruncated: the line was cut by the parse limit and was not parsed
	// (RFC 9309 §2.5; see doc.go).
	LineTruncated
	// LineBeforeGroup: an allow or disallow record before the first
	// user-agent line; it belongs to no group and is ignored (RFC 9309
	// §2.2.1: rules only exist inside groups).
	LineBeforeGroup
	// LineBadPattern: an allow or disallow value that is neither empty nor
	// starts with "/" or "*" (RFC 9309 §2.2.2 path-pattern starts with "/").
	// Such a pattern can never match a path; see doc.go.
	LineBadPattern
)

// Entry is one key/value record, handed to a Handler. The Parser owns it and
// reuses it for the next record: the struct and every slice in it are valid
// only until the handler method returns. Slices point into the parsed body or
// into the Parser's scratch space; copy what you keep.
type Entry struct {
	// Key is the record's kind after typo correction.
	Key Key
	// Name is the normalised key: lower case, runs of white space and "_"
	// folded to "-", and a known misspelling replaced by the canonical name
	// ("dissallow" -> "disallow").
	Name []byte
	// RawKey is the key exactly as written, trimmed of surrounding white
	// space.
	RawKey []byte
	// Value is the value as written with the comment removed and surrounding
	// white space trimmed. For allow/disallow it is the pattern as written,
	// before percent-encoding normalisation.
	Value []byte
	// Token is, for a user-agent record, the product token Value names as
	// written (not lower-cased; see agent.go): ProductToken(Value), or
	// GoogleProductToken(Value) under GroupingGoogle. It is empty for "*"
	// (IsStar), for a value that names no token, and for other records.
	// Like Group it is the Parser's, so every handler of one Parse reads
	// the same token.
	Token []byte
	// Line is the 1-based line number; Offset the byte offset of the line's
	// first byte in the body passed to Parse (a BOM counts).
	Line   int
	Offset int
	// Group is the index of the group the record belongs to (RFC 9309
	// §2.1; for a user-agent line, the group it opens or joins), counted
	// from 0 in file order, and -1 before the first user-agent line, where
	// allow and disallow belong to no group. Options.Grouping decides where
	// groups end; every handler of one Parse sees the same numbering.
	Group int
	// Flags are the flags of the line so far (LineTypo, LineMissingColon,
	// LineTooLong, LineInvalidUTF8, LineControl, LineComment). The complete
	// set arrives with the Line event for the same line.
	Flags LineFlags
}

// LineInfo describes one physical line; every line of the parsed part of the
// body gets exactly one, after the Entry event (if any) for that line. Valid
// only until the handler method returns.
type LineInfo struct {
	Num    int // 1-based
	Offset int // byte offset of the first byte of the line
	Len    int // bytes, without the line terminator
	Flags  LineFlags
}

// FileInfo is handed to Handler.Start before any other event.
type FileInfo struct {
	// Size is len(body) as passed to Parse.
	Size int
	// Parsed is how many bytes of the body are parsed: min(Size, limit).
	Parsed int
	// OverLimit reports Size > limit: the rest is ignored (RFC 9309 §2.5).
	OverLimit bool
	// BOM reports a UTF-8 byte order mark (or a prefix of one) at the start.
	BOM bool
}

// LineCounts is handed to Handler.End after the last line: how many lines
// of each kind the parse saw.
type LineCounts struct {
	Lines     int // physical lines parsed
	Blank     int
	Comment   int // lines holding a comment
	Directive int // key/value records
	Invalid   int
	Typo      int
	NoColon   int
	TooLong   int
	BadUTF8   int
	Control   int
	// Line terminators seen: "\n", "\r\n" and lone "\r" (all three end a
	// line, RFC 9309 §2.2 EOL). A last line without a terminator counts in
	// none of them.
	LF, CRLF, CR int
}

// Handler receives the events of one Parse call, in file order: Start, then
// per line an optional record event (UserAgent, Allow, Disallow, Sitemap or
// Other) followed by Line, then End. Handlers that need only some events
// embed NopHandler and override those.
type Handler interface {
	Start(f *FileInfo)
	UserAgent(e *Entry)
	Allow(e *Entry)
	Disallow(e *Entry)
	Sitemap(e *Entry)
	Other(e *Entry)
	Line(l *LineInfo)
	End(s *LineCounts)
}

// NopHandler implements every Handler method as a no-op; embed it.
type NopHandler struct{}

func (NopHandler) Start(*FileInfo)  {}
func (NopHandler) UserAgent(*Entry) {}
func (NopHandler) Allow(*Entry)     {}
func (NopHandler) Disallow(*Entry)  {}
func (NopHandler) Sitemap(*Entry)   {}
func (NopHandler) Other(*Entry)     {}
func (NopHandler) Line(*LineInfo)   {}
func (NopHandler) End(*LineCounts)  {}

// Tee is a Handler that forwards every event to each of its handlers in
// order. Build it once and reuse it: a Tee value does not allocate per event.
type Tee []Handler

func (t Tee) Start(f *FileInfo) {
	for _, h := range t {
		h.Start(f)
	}
}
func (t Tee) UserAgent(e *Entry) {
	for _, h := range t {
		h.UserAgent(e)
	}
}
func (t Tee) Allow(e *Entry) {
	for _, h := range t {
		h.Allow(e)
	}
}
func (t Tee) Disallow(e *Entry) {
	for _, h := range t {
		h.Disallow(e)
	}
}
func (t Tee) Sitemap(e *Entry) {
	for _, h := range t {
		h.Sitemap(e)
	}
}
func (t Tee) Other(e *Entry) {
	for _, h := range t {
		h.Other(e)
	}
}
func (t Tee) Line(l *LineInfo) {
	for _, h := range t {
		h.Line(l)
	}
}
func (t Tee) End(s *LineCounts) {
	for _, h := range t {
		h.End(s)
	}
}
