package reduce

import (
	"bytes"
	"strings"

	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/schema"
)

// Classes of an answer, in the order RFC 9309 §2.3.1 makes one preferable:
// a parsed robots.txt is the best answer a site can give, then an
// unavailable one (4xx: everything allowed), then an unreachable one (5xx:
// everything disallowed), then none at all.
const (
	classParsed uint8 = iota
	classUnavailable
	classUnreachable
	classUnresolved
	// classRedirect marks a capture that is a 3xx: it is not an answer, its
	// target's is.
	classRedirect
)

var classOutcome = [...]string{
	classParsed:      schema.OutcomeParsed,
	classUnavailable: schema.OutcomeUnavailable,
	classUnreachable: schema.OutcomeUnreachable,
	classUnresolved:  schema.OutcomeUnresolved,
}

// classOf maps captures.outcome to a class.
func classOf(outcome string) uint8 {
	switch outcome {
	case schema.OutcomeParsed:
		return classParsed
	case schema.OutcomeUnavailable:
		return classUnavailable
	case schema.OutcomeUnreachable:
		return classUnreachable
	case schema.OutcomeRedirect:
		return classRedirect
	}
	return classUnresolved
}

// Reasons of a result without an answering capture (sites.reason).
const (
	reasonNone uint8 = iota
	reasonLimit
	reasonNotCaptured
	reasonNoLocation
)

var reasonNames = [...]string{
	reasonLimit:       schema.ReasonRedirectLimit,
	reasonNotCaptured: schema.ReasonNotCaptured,
	reasonNoLocation:  schema.ReasonNoLocation,
}

// maxHops is how many redirects are followed (RFC 9309 §2.3.1.2: "SHOULD
// follow at least five consecutive redirects"); a capture reached after
// the fifth that is again a redirect makes the answer unavailable.
const maxHops = parse.MaxRedirects

// capture is one answering capture: what sites reports of it and what
// orders it against another.
type capture struct {
	id          [16]byte
	url         string
	status      int32
	statusClass string
	fetch       int64 // Unix ms; noTime when unknown
}

// noTime orders an unknown fetch time before every known one (so a known
// time wins "the latest fetch").
const noTime = -1 << 62

// result is where following a URL (or a capture) leads: an answering
// capture reached after hops redirects, or no capture and the reason.
type result struct {
	class  uint8
	hops   uint8
	reason uint8
	ans    *capture // nil when reason is not reasonNone
}

// better reports whether a is preferable to b: a better class, then fewer
// redirects, then the later fetch, then the smaller capture id, then (for
// results without a capture) the reason's order. It is a strict total
// order on distinct results, so every choice below is the same whatever
// order the captures arrive in.
func better(a, b *result) bool {
	if a.class != b.class {
		return a.class < b.class
	}
	if (a.ans == nil) != (b.ans == nil) {
		return a.ans != nil
	}
	if a.ans == nil {
		return a.reason < b.reason
	}
	if a.hops != b.hops {
		return a.hops < b.hops
	}
	if a.ans.fetch != b.ans.fetch {
		return a.ans.fetch > b.ans.fetch
	}
	return bytes.Compare(a.ans.id[:], b.ans.id[:]) < 0
}

// follow returns r one redirect further on (a result without a capture
// stays as it is).
func follow(r result) result {
	if r.ans != nil {
		r.hops++
	}
	return r
}

// reached is what a redirect to URL v finds in layer, the results of the
// URLs of one partition: the result one redirect further on, or
// resultNotCaptured when the crawl never fetched v.
func reached(layer map[string]result, v string) result {
	r, ok := layer[v]
	if !ok {
		return resultNotCaptured
	}
	return follow(r)
}

var (
	resultLimit       = result{class: classUnavailable, reason: reasonLimit}
	resultNotCaptured = result{class: classUnresolved, reason: reasonNotCaptured}
	resultNoLocation  = result{class: classUnresolved, reason: reasonNoLocation}
)

// authority returns the part of an absolute URL that partitions it: its
// scheme-less host and port, lower-cased. Equal URLs give equal
// authorities; that is all the partitioning needs (URLs are matched as
// written, see the package documentation).
func authority(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if i := strings.IndexAny(u, "/?#"); i >= 0 {
		u = u[:i]
	}
	return strings.ToLower(u)
}
