package verdict

// Values of Verdict and Somesite (the bots table's verdict and somesite
// columns).
const (
	Full    = "full"
	Partial = "partial"
	None    = "none"
	Unknown = "unknown" // an unresolved redirect: every definition
)

// Values of CIC (and Unknown).
const (
	CICAll  = "all"
	CICSome = "some"
	CICNone = "none"
)

// Values of CCClass (and Unknown).
const (
	CCClassDisallowAll = "disallow-all"
	CCClassAllowAll    = "allow-all"
	CCClassAllowPart   = "allow-part"
)

// BotVerdict is the verdicts of one agent on one file under every
// definition, in the bots table's vocabularies, and the one type in which
// robotstat passes a bot's verdicts around (schema.BotVerdict is this type):
// what a Verdicter decides for a group set, what a bots block holds once per
// distinct tuple, what a bots row's Verdicts returns. The fields are the bots
// row's of the same names (documented in schema.BotRow); RootAllowed is nil
// exactly when the verdicts are unknown (a redirect robotstat could not
// follow). Matched (named, star or none) is left to the caller, which knows
// how the agent was looked up. A BotVerdict is a plain value; RootAllowed
// points at memory shared by every BotVerdict and must not be written.
type BotVerdict struct {
	Matched     string
	RootAllowed *bool
	Verdict     string
	Somesite    string
	CIC         string
	CCClass     string
}

// Known reports whether the verdicts are known (RootAllowed is set).
func (v *BotVerdict) Known() bool { return v.RootAllowed != nil }
