package schema

// Batch holds the rows of any number of captures, one slice per table, on
// their way from the stats package's builders to a Sink. The bots rows are
// kept as one BotsBlock per capture (BotRows expands them).
//
// The slices inside rows (GroupRow.UserAgents, DirectiveRow.Signals,
// GroupRow.CrawlDelay, a block's Verdicts and Index, ...) are cut from the
// Batch's arenas, so that building a capture's rows does not allocate once
// the Batch is warm; they are valid until Reset. The strings are ordinary Go
// strings and may be kept.
//
// The tables whose rows are not a capture's have no slice here: analyze
// writes an input's errors rows when it commits the input, robotstat sites
// the sites, site_bots and site_history rows, each through WriterOf.
//
// A Batch is reusable (Reset keeps its memory) and not safe for concurrent
// use: give each worker its own, with its own Sink.
type Batch struct {
	Captures    []CaptureRow
	Groups      []GroupRow
	Agents      []AgentRow
	Bots        []BotsBlock
	Directives  []DirectiveRow
	SignalRows  []SignalRow
	Verdicts    []VerdictsRow
	Rules       []RuleRow
	Sitemaps    []SitemapRow
	Diagnostics []DiagnosticRow

	// Arenas for the slices inside the rows above.
	Strings     Arena[string]
	Signals     Arena[Signal]
	Floats      Arena[float64]
	Ints        Arena[int32]      // SignalRow.GroupIndex
	BotVerdicts Arena[BotVerdict] // BotsBlock.Verdicts
	BotIndexes  Arena[int32]      // BotsBlock.Index
}

// Reset empties every table and arena and keeps the memory for reuse.
func (b *Batch) Reset() {
	b.Captures = b.Captures[:0]
	b.Groups = b.Groups[:0]
	b.Agents = b.Agents[:0]
	b.Bots = b.Bots[:0]
	b.Directives = b.Directives[:0]
	b.SignalRows = b.SignalRows[:0]
	b.Rules = b.Rules[:0]
	b.Sitemaps = b.Sitemaps[:0]
	b.Diagnostics = b.Diagnostics[:0]
	b.Verdicts = b.Verdicts[:0]
	b.Strings.Reset()
	b.Signals.Reset()
	b.Floats.Reset()
	b.Ints.Reset()
	b.BotVerdicts.Reset()
	b.BotIndexes.Reset()
}

// Len returns the number of rows over all tables (a bots block counts its
// rows).
func (b *Batch) Len() int {
	n := 0
	for i := range tableDefs {
		n += tableDefs[i].count(b)
	}
	return n
}

// BotRows returns the rows of the bots table, the blocks of Bots expanded.
func (b *Batch) BotRows() []BotRow {
	out := make([]BotRow, 0, botRows(b))
	for i := range b.Bots {
		out = b.Bots[i].AppendRows(out)
	}
	return out
}

func botRows(b *Batch) int {
	n := 0
	for i := range b.Bots {
		n += b.Bots[i].Rows()
	}
	return n
}

// Arena is append-only backing memory for the small slices inside rows:
// Since cuts the values appended from a mark on, with its capacity capped so
// that appending to the cut cannot overwrite what follows. When the arena
// grows, earlier cuts keep pointing at the old array, whose values do not
// change, so every cut stays valid until Reset.
//
// The zero Arena is empty and ready; an Arena is not safe for concurrent use.
type Arena[T any] struct{ buf []T }

// Append adds v.
func (a *Arena[T]) Append(v T) { a.buf = append(a.buf, v) }

// Mark returns the position Since cuts from.
func (a *Arena[T]) Mark() int { return len(a.buf) }

// Since returns the values appended since mark, valid until Reset.
func (a *Arena[T]) Since(mark int) []T {
	n := len(a.buf)
	return a.buf[mark:n:n]
}

// Last returns a pointer to the value appended last, valid until Reset.
func (a *Arena[T]) Last() *T { return &a.buf[len(a.buf)-1] }

// Reset empties the arena and keeps its memory. Cuts made before Reset must
// no longer be used.
func (a *Arena[T]) Reset() { a.buf = a.buf[:0] }
