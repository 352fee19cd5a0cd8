package schema

import (
	"fmt"
	"slices"
	"strings"
)

// TableName names a table; it is also the table's folder under the
// dataset's root.
type TableName string

// The tables, in the order the documentation lists them.
const (
	Captures    TableName = "captures"
	Groups      TableName = "groups"
	Agents      TableName = "agents"
	Bots        TableName = "bots"
	Directives  TableName = "directives"
	Rules       TableName = "rules"
	Sitemaps    TableName = "sitemaps"
	Diagnostics TableName = "diagnostics"
)

// AllTables returns every table, default ones first.
func AllTables() []TableName {
	return []TableName{Captures, Groups, Agents, Bots, Directives, Rules, Sitemaps, Diagnostics}
}

// DefaultTables returns the tables written when Options.Tables is empty.
// rules, sitemaps and diagnostics are opt-in because they hold one row per
// line rather than per capture or key.
func DefaultTables() []TableName {
	return []TableName{Captures, Groups, Agents, Bots, Directives}
}

// Valid reports whether t is one of the tables of AllTables.
func (t TableName) Valid() bool { return slices.Contains(AllTables(), t) }

// ParseTables parses a --tables value: a comma-separated list of table
// names, "default" (DefaultTables) and "all" (AllTables), in any mix, such
// as "default,rules". Duplicates collapse; the result follows AllTables'
// order.
func ParseTables(list string) ([]TableName, error) {
	want := make(map[TableName]bool)
	for _, f := range strings.Split(list, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		switch f {
		case "":
			continue
		case "default":
			for _, t := range DefaultTables() {
				want[t] = true
			}
		case "all":
			for _, t := range AllTables() {
				want[t] = true
			}
		default:
			if !TableName(f).Valid() {
				return nil, fmt.Errorf("schema: unknown table %q (want a list of %s, default or all)", f, strings.Join(tableNames(), ", "))
			}
			want[TableName(f)] = true
		}
	}
	if len(want) == 0 {
		return nil, fmt.Errorf("schema: empty table list")
	}
	var out []TableName
	for _, t := range AllTables() {
		if want[t] {
			out = append(out, t)
		}
	}
	return out, nil
}

func tableNames() []string {
	var s []string
	for _, t := range AllTables() {
		s = append(s, string(t))
	}
	return s
}
