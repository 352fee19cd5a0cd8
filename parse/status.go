package parse

// Outcome is what a fetch of /robots.txt means for the rules, by HTTP status
// (RFC 9309 §2.3.1).
type Outcome uint8

const (
	// OutcomeParsed: 2xx (§2.3.1.1); the body's rules apply. A status of 0
	// (unknown, e.g. a file on disk) also parses the body.
	OutcomeParsed Outcome = iota
	// OutcomeRedirect: 3xx (§2.3.1.2) not yet followed; undecided.
	OutcomeRedirect
	// OutcomeUnavailable: 4xx (§2.3.1.3), or more than MaxRedirects
	// redirects; the crawler MAY access any resource: allow all.
	OutcomeUnavailable
	// OutcomeUnreachable: 5xx or no response (§2.3.1.4); the crawler MUST
	// assume complete disallow.
	OutcomeUnreachable
)

// The outcomes' names (Outcome.String): the values of the captures table's
// outcome column (schema.OutcomeParsed, ...), defined once, here.
const (
	OutcomeNameParsed      = "parsed"
	OutcomeNameRedirect    = "redirect"
	OutcomeNameUnavailable = "unavailable"
	OutcomeNameUnreachable = "unreachable"
)

var outcomeNames = [...]string{
	OutcomeParsed:      OutcomeNameParsed,
	OutcomeRedirect:    OutcomeNameRedirect,
	OutcomeUnavailable: OutcomeNameUnavailable,
	OutcomeUnreachable: OutcomeNameUnreachable,
}

func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "invalid"
}

// MaxRedirects is how many consecutive redirects are followed: RFC 9309
// §2.3.1.2 says crawlers SHOULD follow at least five, and MAY treat more as
// unavailable. It is the one definition of the limit: ChainOutcome's, the
// sites table's (package reduce) and robotstat scan's default.
const MaxRedirects = 5

// StatusOptions shape StatusOutcome. The zero value is RFC 9309.
type StatusOptions struct {
	// TooManyRequestsUnreachable treats 429 as 5xx (complete disallow), as
	// Google does, instead of the RFC's 4xx "unavailable" (Google_429).
	TooManyRequestsUnreachable bool
}

// StatusOutcome maps one HTTP status to its outcome. Status 0 means the
// content is known without a status (a file); 1xx and any code outside
// 100-599 count as unreachable: no usable response.
func StatusOutcome(status int, o StatusOptions) Outcome {
	switch {
	case status == 0:
		return OutcomeParsed
	case status == 429 && o.TooManyRequestsUnreachable:
		return OutcomeUnreachable
	case status >= 200 && status < 300:
		return OutcomeParsed
	case status >= 300 && status < 400:
		return OutcomeRedirect
	case status >= 400 && status < 500:
		return OutcomeUnavailable
	}
	return OutcomeUnreachable
}

// ChainOutcome resolves a chain of fetches: statuses[0] is the response to
// /robots.txt, each later one the response to the previous one's redirect
// target. It returns the outcome and the index of the response whose body
// applies (meaningful for OutcomeParsed). A chain that is still redirecting
// after MaxRedirects redirects is unavailable (§2.3.1.2); one that ends in a
// redirect sooner is OutcomeRedirect (unresolved).
func ChainOutcome(statuses []int, o StatusOptions) (Outcome, int) {
	for i, s := range statuses {
		out := StatusOutcome(s, o)
		if out != OutcomeRedirect {
			return out, i
		}
		if i >= MaxRedirects {
			return OutcomeUnavailable, i
		}
	}
	return OutcomeRedirect, len(statuses) - 1
}
