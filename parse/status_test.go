package parse

import "testing"

func TestStatusOutcome(t *testing.T) {
	cases := []struct {
		name   string
		status int
		google bool
		want   Outcome
	}{
		{"RFC9309_2_3_1_1_200_parsed", 200, false, OutcomeParsed},
		{"RFC9309_2_3_1_1_204_parsed", 204, false, OutcomeParsed},
		{"RFC9309_2_3_1_1_299_parsed", 299, false, OutcomeParsed},
		{"RFC9309_2_3_1_2_301_redirect", 301, false, OutcomeRedirect},
		{"RFC9309_2_3_1_2_302_redirect", 302, false, OutcomeRedirect},
		{"RFC9309_2_3_1_2_308_redirect", 308, false, OutcomeRedirect},
		{"RFC9309_2_3_1_3_400_unavailable", 400, false, OutcomeUnavailable},
		{"RFC9309_2_3_1_3_401_unavailable", 401, false, OutcomeUnavailable},
		{"RFC9309_2_3_1_3_403_unavailable", 403, false, OutcomeUnavailable},
		{"RFC9309_2_3_1_3_404_unavailable", 404, false, OutcomeUnavailable},
		{"RFC9309_2_3_1_3_410_unavailable", 410, false, OutcomeUnavailable},
		{"RFC9309_2_3_1_3_429_unavailable", 429, false, OutcomeUnavailable},
		{"Google_429_unreachable", 429, true, OutcomeUnreachable},
		{"Google_429_option_leaves_404", 404, true, OutcomeUnavailable},
		{"RFC9309_2_3_1_4_500_unreachable", 500, false, OutcomeUnreachable},
		{"RFC9309_2_3_1_4_503_unreachable", 503, false, OutcomeUnreachable},
		{"RFC9309_2_3_1_4_599_unreachable", 599, false, OutcomeUnreachable},
		{"Status_0_unknown_parses_body", 0, false, OutcomeParsed},
		{"Status_1xx_unreachable", 100, false, OutcomeUnreachable},
		{"Status_600_unreachable", 600, false, OutcomeUnreachable},
		{"Status_negative_unreachable", -1, false, OutcomeUnreachable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := StatusOutcome(c.status, StatusOptions{TooManyRequestsUnreachable: c.google}); got != c.want {
				t.Errorf("StatusOutcome(%d) = %v, want %v", c.status, got, c.want)
			}
		})
	}
}

func TestChainOutcome(t *testing.T) {
	cases := []struct {
		name  string
		chain []int
		want  Outcome
		at    int
	}{
		{"RFC9309_2_3_1_2_no_redirect", []int{200}, OutcomeParsed, 0},
		{"RFC9309_2_3_1_2_one_redirect", []int{301, 200}, OutcomeParsed, 1},
		{"RFC9309_2_3_1_2_five_redirects_followed", []int{301, 302, 307, 308, 301, 200}, OutcomeParsed, 5},
		{"RFC9309_2_3_1_2_six_redirects_unavailable", []int{301, 301, 301, 301, 301, 301, 200}, OutcomeUnavailable, 5},
		{"RFC9309_2_3_1_2_redirect_to_404", []int{301, 404}, OutcomeUnavailable, 1},
		{"RFC9309_2_3_1_2_redirect_to_503", []int{302, 302, 503}, OutcomeUnreachable, 2},
		{"RFC9309_2_3_1_2_unresolved", []int{301, 301}, OutcomeRedirect, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, at := ChainOutcome(c.chain, StatusOptions{})
			if got != c.want || at != c.at {
				t.Errorf("ChainOutcome(%v) = %v at %d, want %v at %d", c.chain, got, at, c.want, c.at)
			}
		})
	}
}

func TestOutcomeDecisions(t *testing.T) {
	var r Robots
	NewParser(Options{}).Compile([]byte("User-agent: *\nAllow: /\n"), &r)
	cases := []struct {
		name    string
		o       Outcome
		allowed bool
		reason  Reason
	}{
		{"RFC9309_2_3_1_3_unavailable_allows_all", OutcomeUnavailable, true, ReasonUnavailable},
		{"RFC9309_2_3_1_4_unreachable_disallows_all", OutcomeUnreachable, false, ReasonUnreachable},
		{"RFC9309_2_3_1_2_redirect_undecided", OutcomeRedirect, false, ReasonRedirect},
		{"RFC9309_2_3_1_1_parsed_uses_rules", OutcomeParsed, true, ReasonRule},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r.SetOutcome(c.o)
			d := r.Decide("x", "/robots.txt/../a")
			if d.Allowed != c.allowed || d.Reason != c.reason {
				t.Errorf("got %v/%v, want %v/%v", d.Allowed, d.Reason, c.allowed, c.reason)
			}
		})
	}
}
