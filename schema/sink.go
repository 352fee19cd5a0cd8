package schema

import "fmt"

// Sink writes Batches into a Dataset for one worker: it holds, for every
// enabled table a Batch carries, the writer that suits the table (a
// LocalWriter of its own for the tables of many rows per capture, the
// shared TableWriter for the others; see tableDefs), so the caller's flush
// is one call and names no table. The tables that are not captures' rows
// (errors, sites, site_bots, site_history) are written through WriterOf.
//
// A Sink is not safe for concurrent use: give each worker its own. Make
// every Sink before Commit, which ships what their LocalWriters hold.
type Sink struct {
	writes []func(*Batch) error
	names  []TableName
}

// Sink returns a new Sink of d.
func (d *Dataset) Sink() *Sink {
	s := &Sink{}
	for i, def := range d.defs {
		if def.sink == nil {
			continue // direct: its rows come through WriterOf
		}
		s.writes = append(s.writes, def.sink(d.tables[i]))
		s.names = append(s.names, def.name)
	}
	return s
}

// Write writes every enabled table's rows of b, then resets b; the rows of
// tables that are not enabled are dropped. Errors are those of
// TableWriter.Write, LocalWriter.Write and WriteBots, with the table named;
// after one the dataset is failed and b is left as it was.
func (s *Sink) Write(b *Batch) error {
	for i, w := range s.writes {
		if err := w(b); err != nil {
			return fmt.Errorf("writing rows of table %s: %w", s.names[i], err)
		}
	}
	b.Reset()
	return nil
}
