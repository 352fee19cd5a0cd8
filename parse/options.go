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
