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
	out := make([]TableName, len(tableDefs))
	for i := range tableDefs {
		out[i] = tableDefs[i].name
	}
	return out
}

// DefaultTables returns the tables written when Options.Tables is empty.
// rules, sitemaps and diagnostics are opt-in because they hold one row per
// line rather than per capture or key.
func DefaultTables() []TableName {
	var out []TableName
	for i := range tableDefs {
		if tableDefs[i].dflt {
			out = append(out, tableDefs[i].name)
		}
	}
	return out
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

// tableDef is everything the package needs to know of one table besides its
// row type: its name, whether it is written by default, how its writer is
// made and how a Sink hands it a Batch's rows. Adding a table is a row type,
// a Batch field and a line here.
type tableDef struct {
	name TableName
	dflt bool
	// open returns the table's TableWriter in d.
	open func(d *Dataset) committer
	// sink returns the function through which one Sink writes a Batch's
	// rows of the table to w (open's result).
	sink func(w committer) func(*Batch) error
	// count returns the table's rows in a Batch.
	count func(*Batch) int
}

// tableDefs lists the tables in the order of AllTables: the order of the
// documentation, of Commit, of the run summary.
var tableDefs = [...]tableDef{
	shared(Captures, true, func(b *Batch) []CaptureRow { return b.Captures }),
	local(Groups, true, func(b *Batch) []GroupRow { return b.Groups }),
	local(Agents, true, func(b *Batch) []AgentRow { return b.Agents }),
	botsTable(),
	shared(Directives, true, func(b *Batch) []DirectiveRow { return b.Directives }),
	local(Rules, false, func(b *Batch) []RuleRow { return b.Rules }),
	shared(Sitemaps, false, func(b *Batch) []SitemapRow { return b.Sitemaps }),
	shared(Diagnostics, false, func(b *Batch) []DiagnosticRow { return b.Diagnostics }),
}

// Two ways of writing a table, chosen per table by measurement (see
// LocalWriter): tables with many rows per capture (groups, agents, bots,
// rules) are encoded in each worker's goroutine by its own LocalWriter;
// tables of a row or two per capture go through the shared TableWriter,
// whose row groups span so many captures that the url and capture_id
// dictionaries overflow into plain pages, which parquet-go cannot append
// verbatim and would re-encode under the lock (measured: captures and
// directives).

// shared is a table every Sink writes through its TableWriter.
func shared[T Row](name TableName, dflt bool, rows func(*Batch) []T) tableDef {
	return tableDef{
		name: name, dflt: dflt,
		open: func(d *Dataset) committer { return newTableWriter[T](d, name) },
		sink: func(w committer) func(*Batch) error {
			t := w.(*TableWriter[T])
			return func(b *Batch) error { return t.Write(rows(b)) }
		},
		count: func(b *Batch) int { return len(rows(b)) },
	}
}

// local is a table every Sink writes through a LocalWriter of its own.
func local[T Row](name TableName, dflt bool, rows func(*Batch) []T) tableDef {
	d := shared(name, dflt, rows)
	d.sink = func(w committer) func(*Batch) error {
		l := w.(*TableWriter[T]).Local()
		return func(b *Batch) error { return l.Write(rows(b)) }
	}
	return d
}

// botsTable is the bots table: blocks, written by a LocalWriter's own
// encoder (WriteBots).
func botsTable() tableDef {
	return tableDef{
		name: Bots, dflt: true,
		open: func(d *Dataset) committer { return newTableWriter[BotRow](d, Bots) },
		sink: func(w committer) func(*Batch) error {
			l := w.(*TableWriter[BotRow]).Local()
			return func(b *Batch) error { return WriteBots(l, b.Bots) }
		},
		count: botRows,
	}
}
