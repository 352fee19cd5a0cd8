package schema

import (
	"testing"

	"github.com/robotstat/robotstat/parse"
)

// TestOutcomeValues: captures.outcome holds the names of package parse's
// outcomes, the values this package documents and readers filter on.
func TestOutcomeValues(t *testing.T) {
	t.Parallel()
	for o, want := range map[parse.Outcome]string{
		parse.OutcomeParsed:      OutcomeParsed,
		parse.OutcomeRedirect:    OutcomeRedirect,
		parse.OutcomeUnavailable: OutcomeUnavailable,
		parse.OutcomeUnreachable: OutcomeUnreachable,
	} {
		if o.String() != want {
			t.Errorf("parse outcome %d is %q, captures.outcome says %q", o, o.String(), want)
		}
	}
	for _, v := range []string{OutcomeParsed, OutcomeRedirect, OutcomeUnavailable, OutcomeUnreachable, OutcomeUnresolved} {
		if v == "" || v == "invalid" {
			t.Errorf("outcome value %q", v)
		}
	}
}
