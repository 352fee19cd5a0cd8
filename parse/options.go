package parse

import (
	"errors"
	"math"
	"strconv"
)

// DefaultLimit is the number of bytes of a body that are parsed by default:
// 500 KiB, the minimum RFC 9309 §2.5 requires crawlers to parse (and what
// Googlebot parses).
const DefaultLimit = 500 << 10

// DefaultLongLine is the length above which a line is flagged LineTooLong:
// Google's reference parser's line buffer (2083*8 bytes, robots.cc
// kMaxLineLen), which holds the first 16,663 bytes of a line and its NUL, so
// Google also cuts a line of exactly 16,664 bytes that is not flagged. We
// parse long lines whole (Deviation_long_lines).
const DefaultLongLine = 2083 * 8

// Options shape a Parser. The zero value means the defaults.
type Options struct {
	// Limit is how many bytes of a body are parsed; 0 means DefaultLimit and
	// a negative value means no limit. RFC 9309 §2.5 requires at least
	// 500 KiB.
	Limit int
	// LongLine is the line length above which LineTooLong is set; 0 means
	// DefaultLongLine.
	LongLine int
	// Grouping says whether sitemap and other non-rule records end a run of
	// user-agent lines and how a user-agent line names its product token;
	// it decides Entry.Group and Entry.Token for every handler alike.
	Grouping Grouping
}

// ErrLimitTooSmall is returned by Validate for a positive limit below the
// RFC 9309 §2.5 minimum.
var ErrLimitTooSmall = errors.New("parse limit below the RFC 9309 minimum of 500 KiB (512000 bytes)")

// Validate checks the options. A limit below 500 KiB is rejected because the
// numbers it produces would not be RFC 9309 numbers.
func (o Options) Validate() error {
	if o.Limit > 0 && o.Limit < DefaultLimit {
		return ErrLimitTooSmall
	}
	if o.Grouping > GroupingGoogle {
		return errors.New("parse: unknown Grouping " + strconv.Itoa(int(o.Grouping)))
	}
	if o.LongLine < 0 {
		return errors.New("parse: negative LongLine " + strconv.Itoa(o.LongLine))
	}
	return nil
}

func (o Options) limit() int {
	switch {
	case o.Limit == 0:
		return DefaultLimit
	case o.Limit < 0:
		return math.MaxInt
	}
	return o.Limit
}

func (o Options) longLine() int {
	if o.LongLine == 0 {
		return DefaultLongLine
	}
	return o.LongLine
}

// Grouping chooses how a file's groups are read: how records other than
// user-agent, allow and disallow affect group boundaries, and which product
// token a user-agent line names (the group an agent finds). The agent asked
// about is read the same way under both (ProductToken).
type Grouping uint8

const (
	// GroupingRFC (the default) follows RFC 9309 §2.2.4: "Parsing of other
	// records MUST NOT interfere with the parsing of explicitly defined
	// records ... a Sitemaps record MUST NOT terminate a group." Sitemap,
	// Crawl-delay and every other record are transparent: user-agent lines
	// on either side of them form one group. A user-agent line names
	// ProductToken(value), digits and non-ASCII letters included
	// (Deviation_token_digits).
	GroupingRFC Grouping = iota
	// GroupingGoogle reproduces Google's reference parser, which ends a run
	// of user-agent lines at any sitemap or unknown record, so that in
	// "User-agent: a / Crawl-delay: 5 / User-agent: b / Disallow: /" agent a
	// has a group of its own with no rules (Deviation_other_record_ends_run),
	// and names what robots.cc's ExtractUserAgent reads from a user-agent
	// line (GoogleProductToken: ASCII letters, "_" and "-"), so that
	// "User-agent: MJ12bot" names mj and MJ12bot never finds its group
	// (google/robotstxt#46). It exists to measure how much a result depends
	// on Google's reading; the two go together because both decide which
	// group an agent finds, and a study that reproduces Google reproduces
	// both.
	GroupingGoogle
)
