package stats

import "github.com/robotstat/robotstat/schema"

// ruleRows appends one rules row per allow and disallow line inside a group.
func (a *Analyzer) ruleRows(k *capture, dst *schema.Batch) {
	for i := range a.robots.Rules() {
		ru := &a.robots.Rules()[i]
		dst.Rules = append(dst.Rules, schema.RuleRow{
			Key:               k.key,
			GroupIndex:        int32(ru.Group),
			Line:              int32(ru.Line),
			Directive:         ru.Directive.String(),
			Pattern:           a.in.str(ru.Raw),
			PatternNormalized: a.in.str(ru.Pattern),
		})
	}
}
