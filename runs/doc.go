// Package runs says what a robotstat run is and carries one out: the
// inputs read by package pipeline, analysed by package stats, and written
// by package schema into a dataset folder, one input at a time, so that a
// run can be killed, resumed, split into shards and redone with other
// options without a row ever counted twice or lost.
//
// A run reads units (pipeline.Unit: an input file, a manifest line, a URL,
// a folder's host files together, a panel's crawl). Each unit is a
// schema.Dataset run of its own:
//
//   - Its run id (UnitID) is a function of its canonical name
//     (CanonicalUnit): the same input has the same id in every run and every
//     shard, two inputs of the same base name differ.
//   - It is committed on its own once read (schema.Dataset.CommitOutcome):
//     its files are renamed into place and its completion record under
//     Dir/_robotstat/inputs names them, with its options (Options), the
//     tables written and a UnitSummary. A unit that could not be read to
//     its end is committed as failed, with the rows read before; a failed
//     unit does not end the run (pipeline.Config.KeepGoing), unless
//     Config.Pipeline.Strict asks it to.
//   - A rerun skips (resumes past) every unit whose record is done and
//     holds what the rerun would write: the same options, schema version
//     and at least the tables asked for. A unit held with other options is
//     read again and replaces its rows (Result.Replaced says why), never
//     adds a second copy; Config.Redo reads every unit again.
//   - Before anything is read, what killed runs of the run's units left in
//     Dir is removed (schema.Sweep), and the run holds Dir's writer lock
//     (schema.Lock): exclusive, or shared by the shards of a sharded run
//     (pipeline.Config.Shard), which read disjoint units into one Dir.
//   - A unit's data errors and its failure become rows of the errors
//     table (ErrorRows), filed under the crawl of its captures.
//
// The tables that span units (sites, site_bots, site_history) are package
// reduce's, built after the run over everything in Dir; SitesUpToDate says
// whether a build is needed. ReadStatus says, from the records alone, which
// inputs a dataset holds, which failed and which are left.
//
// Where a rule goes: what makes two inputs one unit, and what a unit's
// options are, in unit.go and options.go (a rerun skips, or replaces, by
// them); what a unit's rows are filed under (its crawl, its error rows) in
// writer.go and errorrows.go; what a run as a whole must have done (the
// units and captures it read) in Analyze, on its Result, before it
// returns. A new kind of input is a source of package pipeline: it gives
// units, and this package commits them like any other.
//
// This package reads no environment variable and prints nothing on its
// own: Result.WriteSummary, Result.WriteErrors and Status.WriteText write
// what a run did and what a dataset holds, as robotstat says it, to the
// writer they are given; the caller (cmd/robotstat) owns flags, where the
// text goes and exit codes.
package runs
