package schema

import (
	"fmt"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
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
	Signals     TableName = "signals"
	Rules       TableName = "rules"
	Sitemaps    TableName = "sitemaps"
	Diagnostics TableName = "diagnostics"
	Errors      TableName = "errors"
	Verdicts    TableName = "verdicts"
	// Built by robotstat sites from the others, not by analyze.
	Sites       TableName = "sites"
	SiteBots    TableName = "site_bots"
	SiteHistory TableName = "site_history"
	Domains     TableName = "domains"
)

// AllTables returns every table: analyze's (AnalyzeTables), then those
// robotstat sites builds from them (ReduceTables).
func AllTables() []TableName { return tablesWhere(func(*tableDef) bool { return true }) }

// AnalyzeTables returns the tables analyze can write, default ones first.
func AnalyzeTables() []TableName { return tablesWhere(func(d *tableDef) bool { return !d.reduce }) }

// ReduceTables returns the tables robotstat sites builds from analyze's.
func ReduceTables() []TableName { return tablesWhere(func(d *tableDef) bool { return d.reduce }) }

// DefaultTables returns the tables analyze writes when Options.Tables is
// empty. bots (a row per capture and catalog bot: site_bots has them per
// site), rules, sitemaps and diagnostics (a row per line) are opt-in.
func DefaultTables() []TableName {
	return tablesWhere(func(d *tableDef) bool { return d.dflt && !d.reduce })
}

// OptInTables returns the tables analyze writes only when asked: those of
// AnalyzeTables that are not DefaultTables.
func OptInTables() []TableName {
	return tablesWhere(func(d *tableDef) bool { return !d.dflt && !d.reduce })
}

func tablesWhere(keep func(*tableDef) bool) []TableName {
	var out []TableName
	for i := range tableDefs {
		if keep(&tableDefs[i]) {
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
			for _, t := range AnalyzeTables() {
				want[t] = true
			}
		default:
			t := TableName(f)
			if slices.Contains(ReduceTables(), t) {
				return nil, fmt.Errorf("schema: table %s is built by robotstat sites from the others, not written by analyze", t)
			}
			if !t.Valid() {
				return nil, fmt.Errorf("schema: unknown table %q (want a list of %s, default or all)", f, strings.Join(tableNames(), ", "))
			}
			want[t] = true
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
	for _, t := range AnalyzeTables() {
		s = append(s, string(t))
	}
	return s
}

// tableDef is everything the package needs to know of one table besides its
// row type: its name, whether it is written by default, how its writer is
// made and how a Sink hands it a Batch's rows. Adding a table is a row type,
// a Batch field and a line here (no Batch field for a direct table).
type tableDef struct {
	name TableName
	dflt bool
	// reduce marks a table robotstat sites builds, not analyze.
	reduce bool
	// open returns the table's TableWriter in d.
	open func(d *Dataset) committer
	// sink returns the function through which one Sink writes a Batch's
	// rows of the table to w (open's result); nil for a table no Batch
	// carries (direct).
	sink func(w committer) func(*Batch) error
	// count returns the table's rows in a Batch.
	count func(*Batch) int
	// schema is the Parquet schema of the table's files (of its row type).
	schema *parquet.Schema
}

// tableDefs lists the tables in the order of AllTables: the order of the
// documentation, of Commit, of the run summary.
var tableDefs = [...]tableDef{
	local(Captures, true, func(b *Batch) []CaptureRow { return b.Captures }),
	local(Groups, true, func(b *Batch) []GroupRow { return b.Groups }),
	local(Agents, true, func(b *Batch) []AgentRow { return b.Agents }),
	botsTable(),
	local(Directives, true, func(b *Batch) []DirectiveRow { return b.Directives }),
	local(Signals, true, func(b *Batch) []SignalRow { return b.SignalRows }),
	local(Verdicts, true, func(b *Batch) []VerdictsRow { return b.Verdicts }),
	direct[ErrorRow](Errors, true),
	local(Rules, false, func(b *Batch) []RuleRow { return b.Rules }),
	local(Sitemaps, false, func(b *Batch) []SitemapRow { return b.Sitemaps }),
	local(Diagnostics, false, func(b *Batch) []DiagnosticRow { return b.Diagnostics }),
	reduced(direct[SiteRow](Sites, true)),
	reduced(direct[SiteBotRow](SiteBots, true)),
	reduced(direct[SiteHistoryRow](SiteHistory, true)),
	reduced(direct[DomainRow](Domains, true)),
}

// reduced marks d as built by robotstat sites.
func reduced(d tableDef) tableDef {
	d.reduce = true
	return d
}

// Every table a Batch carries is encoded by each worker's own LocalWriter
// (groups, agents, rules and the bots table's own encoder since they were
// measured; captures, directives, signals, verdicts, sitemaps and
// diagnostics since issue 23, when TableWriter.Write under the table's lock
// was 15% of a run's CPU that one worker at a time could run). Their row
// groups whose dictionaries overflow become files of their own instead of
// being re-encoded under the lock (LocalWriter).

// shared is a table whose rows one goroutine writes through its
// TableWriter (local and direct build on it).
func shared[T Row](name TableName, dflt bool, rows func(*Batch) []T) tableDef {
	return tableDef{
		name: name, dflt: dflt,
		open: func(d *Dataset) committer { return newTableWriter[T](d, name) },
		sink: func(w committer) func(*Batch) error {
			t := w.(*TableWriter[T])
			return func(b *Batch) error { return t.Write(rows(b)) }
		},
		count:  func(b *Batch) int { return len(rows(b)) },
		schema: parquet.SchemaOf(new(T)),
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

// direct is a table whose rows are not a capture's, so that no Batch
// carries them and a Sink does not write it (sink is nil): analyze writes
// an input's errors when it commits the input, robotstat sites the tables
// it builds, each through WriterOf.
func direct[T Row](name TableName, dflt bool) tableDef {
	return tableDef{
		name: name, dflt: dflt,
		open:   func(d *Dataset) committer { return newTableWriter[T](d, name) },
		count:  func(*Batch) int { return 0 },
		schema: parquet.SchemaOf(new(T)),
	}
}

// botsTable is the bots table: blocks, written by a LocalWriter's own
// encoder (WriteBots).
func botsTable() tableDef {
	return tableDef{
		name: Bots,
		open: func(d *Dataset) committer { return newTableWriter[BotRow](d, Bots) },
		sink: func(w committer) func(*Batch) error {
			l := w.(*TableWriter[BotRow]).Local()
			return func(b *Batch) error { return WriteBots(l, b.Bots) }
		},
		count:  botRows,
		schema: parquet.SchemaOf(new(BotRow)),
	}
}
