package explain

import (
	"errors"
	"fmt"

	"github.com/robotstat/robotstat/parse"
)

// Errors of CheckStatus.
var (
	// ErrNotStatus: the number is not an HTTP status (100-599).
	ErrNotStatus = errors.New("not an HTTP status")
	// ErrRedirect: a 3xx must be followed by the crawler (RFC 9309
	// §2.3.1.2); what it leads to is another robots.txt.
	ErrRedirect = errors.New("a redirect")
)

// CheckStatus returns the outcome of a robots.txt served with status
// (RFC 9309 §2.3.1), or an error wrapping ErrNotStatus or ErrRedirect that
// reads "status 301 is a redirect: ...".
func CheckStatus(status int, o parse.StatusOptions) (parse.Outcome, error) {
	if status < 100 || status > 599 {
		return 0, fmt.Errorf("status %d is %w", status, ErrNotStatus)
	}
	out := parse.StatusOutcome(status, o)
	if out == parse.OutcomeRedirect {
		return 0, fmt.Errorf("status %d is %w: follow it and check the robots.txt it leads to (RFC 9309 §2.3.1.2)", status, ErrRedirect)
	}
	return out, nil
}
