package stats

import (
	"crypto/sha1"
	"encoding/base32"
	"strings"

	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/schema"
)

// captureRows appends the capture's one captures row.
func (a *Analyzer) captureRows(k *capture, dst *schema.Batch) {
	c, site, outcome := k.c, &k.site, k.outcome
	r := &a.robots
	info, sum := r.Info()
	col := &a.col
	bodyLen := c.BodyLen
	if bodyLen < int64(len(c.Body)) {
		bodyLen = int64(len(c.Body))
	}
	html, binary := k.sniff()
	row := schema.CaptureRow{
		Key:              k.key,
		Source:           k.path,
		RecordOffset:     c.Offset,
		WARCRecordID:     schema.TrimRecordID(c.RecordID),
		Scheme:           site.Scheme,
		Port:             site.Port,
		RegisteredDomain: site.RegisteredDomain,
		RobotsPath:       c.RobotsPath,
		FetchTime:        c.FetchTime.UTC(),
		IP:               c.IP,
		HTTPStatus:       int32(c.Status),
		Outcome:          outcome.String(),
		StatusClass:      StatusClass(c.Status),
		ContentType:      c.ContentType,
		IdentifiedType:   c.IdentifiedType,
		WARCTruncated:    c.Truncated,
		BodyBytes:        bodyLen,
		ParsedBytes:      int64(info.Parsed),
		Over500KiB:       bodyLen > parse.DefaultLimit,
		BodyDigest:       a.digest(k),
		LooksHTML:        html,
		LooksBinary:      binary,
		BOM:              hasBOM(c.Body),
		LineEndings:      LineEndings(&sum),
		Lines:            int32(sum.Lines),
		BlankLines:       int32(sum.Blank),
		CommentLines:     col.commentOnly,
		DirectiveLines:   int32(sum.Directive),
		InvalidLines:     int32(sum.Invalid),
		Groups:           int32(len(r.Groups())),
		UserAgentLines:   int32(len(r.Agents())),
		Sitemaps:         int32(len(r.Sitemaps())),
		HasCrawlDelay:    col.crawlDelay,
		NonstandardLines: col.nonstandard,
		TypoLines:        int32(sum.Typo),
		// LineMissingColon is only kept on lines read as a directive.
		MissingColonLines: int32(sum.NoColon),
	}
	if c.FetchTime.IsZero() {
		row.FetchTime = c.FetchTime
	}
	if c.Truncated == "" && c.BodyTruncated {
		row.WARCTruncated = "unspecified"
	}
	if outcome == parse.OutcomeRedirect {
		row.RedirectTarget = ResolveLocation(c.URL, c.Location)
	}
	for i := range r.Rules() {
		ru := &r.Rules()[i]
		if ru.Directive == parse.Allow {
			row.AllowRules++
		} else {
			row.DisallowRules++
		}
		if ru.Wildcard() {
			row.RulesWithStar++
		}
		if ru.Anchored() {
			row.RulesWithDollar++
		}
	}
	if outcome == parse.OutcomeParsed {
		if star := r.StarSet(); star != parse.NoSet {
			row.StarDisallowsRoot = !a.vd.RootAllowed(star, parse.MatchStar)
		}
		row.Template = a.tm.match(a.opts.Templates, r, col.hasKey)
	}
	if n, ok := a.opts.Ranks.Rank(site.Host, site.RegisteredDomain); ok {
		row.Rank = n
	}
	dst.Captures = append(dst.Captures, row)
}

// digest is WARC-Payload-Digest when recorded, else the SHA-1 of the body
// as received, in the same "sha1:BASE32" form, so the two can be compared
// and deduplicated across crawls.
func (a *Analyzer) digest(k *capture) string {
	c := k.c
	if c.PayloadDigest != "" {
		return c.PayloadDigest
	}
	if len(c.Body) == 0 {
		return ""
	}
	sum := sha1.Sum(c.Body)
	a.digestBuf = base32.StdEncoding.AppendEncode(append(a.digestBuf[:0], "sha1:"...), sum[:])
	return string(a.digestBuf)
}

func hasBOM(b []byte) bool {
	return len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF
}

func baseName(source string) string {
	s := source
	if strings.Contains(s, "://") {
		if i := strings.IndexAny(s, "?#"); i >= 0 {
			s = s[:i]
		}
	}
	s = strings.TrimRight(s, "/\\")
	if i := strings.LastIndexAny(s, "/\\"); i >= 0 {
		s = s[i+1:]
	}
	return s
}
