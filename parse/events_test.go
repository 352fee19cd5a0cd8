package parse

import (
	"fmt"
	"strings"
	"testing"
)

// recorder writes every event as one line of text, so tests compare strings.
type recorder struct {
	out []string
}

func (r *recorder) Start(f *FileInfo) {
	r.out = append(r.out, fmt.Sprintf("start size=%d parsed=%d over=%v bom=%v", f.Size, f.Parsed, f.OverLimit, f.BOM))
}
func (r *recorder) entry(kind string, e *Entry) {
	r.out = append(r.out, fmt.Sprintf("%s line=%d off=%d name=%s raw=%q value=%q flags=%s", kind, e.Line, e.Offset, e.Name, e.RawKey, e.Value, flagString(e.Flags)))
}
func (r *recorder) UserAgent(e *Entry) { r.entry("user-agent", e) }
func (r *recorder) Allow(e *Entry)     { r.entry("allow", e) }
func (r *recorder) Disallow(e *Entry)  { r.entry("disallow", e) }
func (r *recorder) Sitemap(e *Entry)   { r.entry("sitemap", e) }
func (r *recorder) Other(e *Entry)     { r.entry("other", e) }
func (r *recorder) Line(l *LineInfo) {
	r.out = append(r.out, fmt.Sprintf("line %d off=%d len=%d %s", l.Num, l.Offset, l.Len, flagString(l.Flags)))
}
func (r *recorder) End(s *LineCounts) {
	r.out = append(r.out, fmt.Sprintf("end %+v", *s))
}

var flagNames = []struct {
	f    LineFlags
	name string
}{
	{LineBlank, "blank"}, {LineComment, "comment"}, {LineDirective, "directive"},
	{LineTypo, "typo"}, {LineMissingColon, "nocolon"}, {LineTooLong, "toolong"},
	{LineInvalidUTF8, "badutf8"}, {LineControl, "control"}, {LineInvalid, "invalid"},
	{LineTruncated, "truncated"}, {LineBeforeGroup, "beforegroup"}, {LineBadPattern, "badpattern"},
}

func flagString(f LineFlags) string {
	var s []string
	for _, n := range flagNames {
		if f&n.f != 0 {
			s = append(s, n.name)
		}
	}
	return "[" + strings.Join(s, ",") + "]"
}

func events(body string, opts Options) []string {
	var r recorder
	NewParser(opts).Parse([]byte(body), &r)
	return r.out
}

func TestEvents(t *testing.T) {
	cases := []struct {
		name string
		body string
		want []string
	}{
		{"RFC9309_2_2_every_record_kind", "User-agent: GPTBot\nAllow: /a\nDisallow: /b # no\nSitemap: https://e.com/s.xml\nCrawl-delay: 5\n", []string{
			"start size=91 parsed=91 over=false bom=false",
			`user-agent line=1 off=0 name=user-agent raw="User-agent" value="GPTBot" flags=[directive]`,
			"line 1 off=0 len=18 [directive]",
			`allow line=2 off=19 name=allow raw="Allow" value="/a" flags=[directive]`,
			"line 2 off=19 len=9 [directive]",
			`disallow line=3 off=29 name=disallow raw="Disallow" value="/b" flags=[comment,directive]`,
			"line 3 off=29 len=17 [comment,directive]",
			`sitemap line=4 off=47 name=sitemap raw="Sitemap" value="https://e.com/s.xml" flags=[directive]`,
			"line 4 off=47 len=28 [directive]",
			`other line=5 off=76 name=crawl-delay raw="Crawl-delay" value="5" flags=[directive]`,
			"line 5 off=76 len=14 [directive]",
			"end {Lines:5 Blank:0 Comment:1 Directive:5 Invalid:0 Typo:0 NoColon:0 TooLong:0 BadUTF8:0 Control:0 LF:5 CRLF:0 CR:0}",
		}},
		{"Google_typo_flags_and_canonical_name", "User agent: a\nDISSALLOW: /x\nSite-map: s\n", []string{
			"start size=40 parsed=40 over=false bom=false",
			`user-agent line=1 off=0 name=user-agent raw="User agent" value="a" flags=[directive,typo]`,
			"line 1 off=0 len=13 [directive,typo]",
			`disallow line=2 off=14 name=disallow raw="DISSALLOW" value="/x" flags=[directive,typo]`,
			"line 2 off=14 len=13 [directive,typo]",
			`sitemap line=3 off=28 name=sitemap raw="Site-map" value="s" flags=[directive,typo]`,
			"line 3 off=28 len=11 [directive,typo]",
			"end {Lines:3 Blank:0 Comment:0 Directive:3 Invalid:0 Typo:3 NoColon:0 TooLong:0 BadUTF8:0 Control:0 LF:3 CRLF:0 CR:0}",
		}},
		{"Google_typo_site_map", "Site-map: https://e.com/s.xml\n", []string{
			"start size=30 parsed=30 over=false bom=false",
			`sitemap line=1 off=0 name=sitemap raw="Site-map" value="https://e.com/s.xml" flags=[directive,typo]`,
			"line 1 off=0 len=29 [directive,typo]",
			"end {Lines:1 Blank:0 Comment:0 Directive:1 Invalid:0 Typo:1 NoColon:0 TooLong:0 BadUTF8:0 Control:0 LF:1 CRLF:0 CR:0}",
		}},
		{"Google_missing_colon_flagged", "User-agent *\nDisallow /\nCrawl-delay 4\nhello world\n", []string{
			"start size=50 parsed=50 over=false bom=false",
			`user-agent line=1 off=0 name=user-agent raw="User-agent" value="*" flags=[directive,nocolon]`,
			"line 1 off=0 len=12 [directive,nocolon]",
			`disallow line=2 off=13 name=disallow raw="Disallow" value="/" flags=[directive,nocolon]`,
			"line 2 off=13 len=10 [directive,nocolon]",
			`other line=3 off=24 name=crawl-delay raw="Crawl-delay" value="4" flags=[directive,nocolon]`,
			"line 3 off=24 len=13 [directive,nocolon]",
			"line 4 off=38 len=11 [invalid]",
			"end {Lines:4 Blank:0 Comment:0 Directive:3 Invalid:1 Typo:0 NoColon:3 TooLong:0 BadUTF8:0 Control:0 LF:4 CRLF:0 CR:0}",
		}},
		{"Deviation_key_prefix_is_other", "Disallowed: /x\n", []string{
			"start size=15 parsed=15 over=false bom=false",
			`other line=1 off=0 name=disallowed raw="Disallowed" value="/x" flags=[directive]`,
			"line 1 off=0 len=14 [directive]",
			"end {Lines:1 Blank:0 Comment:0 Directive:1 Invalid:0 Typo:0 NoColon:0 TooLong:0 BadUTF8:0 Control:0 LF:1 CRLF:0 CR:0}",
		}},
		{"Deviation_invalid_key_html", "<a href=\"http://x\">\n", []string{
			"start size=20 parsed=20 over=false bom=false",
			"line 1 off=0 len=19 [invalid]",
			"end {Lines:1 Blank:0 Comment:0 Directive:0 Invalid:1 Typo:0 NoColon:0 TooLong:0 BadUTF8:0 Control:0 LF:1 CRLF:0 CR:0}",
		}},
		{"RFC9309_2_2_line_ends_and_blank_and_comment", "a: 1\r\n\r# c\rb: 2", []string{
			"start size=15 parsed=15 over=false bom=false",
			`other line=1 off=0 name=a raw="a" value="1" flags=[directive]`,
			"line 1 off=0 len=4 [directive]",
			"line 2 off=6 len=0 [blank]",
			"line 3 off=7 len=3 [comment]",
			`other line=4 off=11 name=b raw="b" value="2" flags=[directive]`,
			"line 4 off=11 len=4 [directive]",
			"end {Lines:4 Blank:1 Comment:1 Directive:2 Invalid:0 Typo:0 NoColon:0 TooLong:0 BadUTF8:0 Control:0 LF:0 CRLF:1 CR:2}",
		}},
		{"Google_bom_offsets_count_bom", "\xEF\xBB\xBFUser-agent: *\n", []string{
			"start size=17 parsed=17 over=false bom=true",
			`user-agent line=1 off=3 name=user-agent raw="User-agent" value="*" flags=[directive]`,
			"line 1 off=3 len=13 [directive]",
			"end {Lines:1 Blank:0 Comment:0 Directive:1 Invalid:0 Typo:0 NoColon:0 TooLong:0 BadUTF8:0 Control:0 LF:1 CRLF:0 CR:0}",
		}},
		{"RFC9309_2_2_1_rule_before_group_and_bad_pattern", "Disallow: /a\nUser-agent: *\nDisallow: a\n", []string{
			"start size=39 parsed=39 over=false bom=false",
			`disallow line=1 off=0 name=disallow raw="Disallow" value="/a" flags=[directive,beforegroup]`,
			"line 1 off=0 len=12 [directive,beforegroup]",
			`user-agent line=2 off=13 name=user-agent raw="User-agent" value="*" flags=[directive]`,
			"line 2 off=13 len=13 [directive]",
			`disallow line=3 off=27 name=disallow raw="Disallow" value="a" flags=[directive,badpattern]`,
			"line 3 off=27 len=11 [directive,badpattern]",
			"end {Lines:3 Blank:0 Comment:0 Directive:3 Invalid:0 Typo:0 NoColon:0 TooLong:0 BadUTF8:0 Control:0 LF:3 CRLF:0 CR:0}",
		}},
		{"Content_control_and_bad_utf8", "a: \x00\nb: \xff\xfe\n", []string{
			"start size=11 parsed=11 over=false bom=false",
			`other line=1 off=0 name=a raw="a" value="\x00" flags=[directive,control]`,
			"line 1 off=0 len=4 [directive,control]",
			`other line=2 off=5 name=b raw="b" value="\xff\xfe" flags=[directive,badutf8]`,
			"line 2 off=5 len=5 [directive,badutf8]",
			"end {Lines:2 Blank:0 Comment:0 Directive:2 Invalid:0 Typo:0 NoColon:0 TooLong:0 BadUTF8:1 Control:1 LF:2 CRLF:0 CR:0}",
		}},
		{"Key_normalisation_folds_separators", "Crawl_Delay: 1\nContent--Signal: x\n", []string{
			"start size=34 parsed=34 over=false bom=false",
			`other line=1 off=0 name=crawl-delay raw="Crawl_Delay" value="1" flags=[directive]`,
			"line 1 off=0 len=14 [directive]",
			`other line=2 off=15 name=content-signal raw="Content--Signal" value="x" flags=[directive]`,
			"line 2 off=15 len=18 [directive]",
			"end {Lines:2 Blank:0 Comment:0 Directive:2 Invalid:0 Typo:0 NoColon:0 TooLong:0 BadUTF8:0 Control:0 LF:2 CRLF:0 CR:0}",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := events(c.body, Options{})
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

func TestLimitEvents(t *testing.T) {
	body := "User-agent: *\n" + strings.Repeat("#", DefaultLimit-len("User-agent: *\n")-5) + "\nAllow: /abc\n"
	got := events(body, Options{})
	if !strings.HasPrefix(got[0], fmt.Sprintf("start size=%d parsed=%d over=true", len(body), DefaultLimit)) {
		t.Errorf("start = %s", got[0])
	}
	want := fmt.Sprintf("line 3 off=%d len=4 [truncated]", DefaultLimit-4)
	if got[len(got)-2] != want {
		t.Errorf("last line = %s, want %s", got[len(got)-2], want)
	}
	for _, e := range got {
		if strings.HasPrefix(e, "allow") {
			t.Errorf("cut line was parsed: %s", e)
		}
	}
	// With no limit everything is parsed.
	got = events(body, Options{Limit: -1})
	if !strings.Contains(strings.Join(got, "\n"), `allow line=3`) {
		t.Errorf("Limit -1 did not parse the last line")
	}
}

func TestLongLineFlag(t *testing.T) {
	body := "Disallow: /" + strings.Repeat("a", DefaultLongLine) + "\n"
	got := events(body, Options{})
	if !strings.Contains(got[1], "toolong") || !strings.Contains(got[1], strings.Repeat("a", 100)) {
		t.Errorf("long line not flagged or not whole: %.200s", got[1])
	}
	if got := events(body, Options{LongLine: 1 << 20}); strings.Contains(got[1], "toolong") {
		t.Errorf("LongLine option ignored")
	}
}

func TestOptionsValidate(t *testing.T) {
	for _, c := range []struct {
		o  Options
		ok bool
	}{{Options{}, true}, {Options{Limit: -1}, true}, {Options{Limit: DefaultLimit}, true}, {Options{Limit: 1000}, false}, {Options{LongLine: -1}, false}} {
		if err := c.o.Validate(); (err == nil) != c.ok {
			t.Errorf("%+v.Validate() = %v", c.o, err)
		}
	}
}

func TestClassifyKey(t *testing.T) {
	cases := map[string]KeyKind{
		"User-agent: x": KindStandard, "Allow: /": KindStandard, "Disallow: /": KindStandard,
		"Sitemap: s": KindExtension, "Crawl-delay: 1": KindExtension, "Content-Signal: search=yes": KindExtension,
		"Host: e.com": KindExtension, "Dissallow: /": KindTypo, "Useragent: x": KindTypo, "Foo: bar": KindUnknown,
		"Disallowed: /": KindUnknown,
	}
	for line, want := range cases {
		var got KeyKind = 99
		h := &classifyHandler{fn: func(e *Entry) { got = ClassifyKey(e) }}
		NewParser(Options{}).Parse([]byte(line), h)
		if got != want {
			t.Errorf("%q: %v, want %v", line, got, want)
		}
	}
}

type classifyHandler struct {
	NopHandler
	fn func(*Entry)
}

func (h *classifyHandler) UserAgent(e *Entry) { h.fn(e) }
func (h *classifyHandler) Allow(e *Entry)     { h.fn(e) }
func (h *classifyHandler) Disallow(e *Entry)  { h.fn(e) }
func (h *classifyHandler) Sitemap(e *Entry)   { h.fn(e) }
func (h *classifyHandler) Other(e *Entry)     { h.fn(e) }

func TestTee(t *testing.T) {
	var a, b recorder
	NewParser(Options{}).Parse([]byte("User-agent: *\nDisallow: /\n"), Tee{&a, &b})
	if len(a.out) != 6 || strings.Join(a.out, "|") != strings.Join(b.out, "|") {
		t.Errorf("tee: %v vs %v", a.out, b.out)
	}
}
