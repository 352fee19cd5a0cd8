package reduce

import (
	"context"
	"sync"
)

// Running the steps of a loop at once (Options.Workers).
//
// A step reads only its own partition of its input spills, but writes
// records bound for any partition of its output spills and rows for the
// tables; run one after the other, the steps' records reach each output
// partition, and their rows the tables, in partition order. Run at once,
// each step writes into a stepOut of its own, in memory, which is applied
// to the real spills and tables in partition order once the steps before
// it have been: every spill and table gets the same records and rows in
// the same order as with one worker, so the output does not depend on
// Options.Workers. A step encodes its own rows (writer.held): what the
// loop does one step at a time is copying bytes, a partition's records at
// a time (bufSink), and the step's apply. At most Workers steps are
// started and not yet applied, so memory is Workers times a step's (its
// partition's state and its output, about a partition's records), never
// the whole crawl.
//
// The loops that read the crawl's files (stage A's captures, stage D's
// verdicts) have a step per row group of the files instead of one per
// partition: the same machinery, in file and row group order.

// loop runs the steps of a loop: the crawl's stages and the history's
// build.
type loop struct {
	ctx context.Context
	// workers is how many steps of a loop run at once (Options.Workers).
	workers int
	out     *writer
}

// stepOut is what one step writes: records for each output spill and rows.
// With one worker its sinks are the spills themselves; its rows go through
// a held writer at any Workers, released at the end of the step, so that
// the tables' row groups are the same for any Workers.
type stepOut struct {
	sinks []sink
	rows  rowSink
	// n are counts a step returns, added up in partition order by apply.
	n stepCounts
	// apply, when the step sets it, runs on the loop's goroutine in
	// partition order, once the step's sinks are drained and its rows
	// released: for what must see what the steps before it left (how many
	// records a spill's partition already holds) and for the loop's own
	// state. It should be cheap: it is the part of a step that runs one at
	// a time.
	apply func() error
}

// stepCounts are what the loops count.
type stepCounts struct {
	sites siteCounts
	bots  botsCounts
	hist  HistorySummary // Hosts, Panel and Rows
}

// bufSink holds a step's records for one spill, each partition's as the
// spill holds them (appendRecord): the order of the records within a
// partition is the order they came, and partitions are files of their
// own, so draining a partition is one copy.
type bufSink struct {
	parts [][]byte
	n     []int
}

func (b *bufSink) put(p int, r spillRecord) error {
	if p >= len(b.parts) {
		b.parts = append(b.parts, make([][]byte, p+1-len(b.parts))...)
		b.n = append(b.n, make([]int, p+1-len(b.n))...)
	}
	b.parts[p] = appendRecord(b.parts[p], r)
	b.n[p]++
	return nil
}

// count returns the records held for partition p.
func (b *bufSink) count(p int) int {
	if p >= len(b.n) {
		return 0
	}
	return b.n[p]
}

// drainTo puts the held records into s, each partition's in the order
// they came.
func (b *bufSink) drainTo(s *spill) error {
	for p, buf := range b.parts {
		if b.n[p] > 0 {
			if err := s.putRecords(p, buf, b.n[p]); err != nil {
				return err
			}
		}
	}
	b.parts, b.n = nil, nil
	return nil
}

// steps runs step for the steps 0 to n-1 (partitions, or the row groups
// of the files read), up to c.workers at once, each writing to the output
// spills outs (through out.sinks, in that order) and rows (out.rows), and
// then, in step order, applies each (out.apply) and calls done with its
// counts. The first error stops the loop: no step is
// started after it, and it is returned once the running ones are done.
func (c loop) steps(n int, outs []*spill, step func(p int, out *stepOut) error, done func(p int, n stepCounts)) error {
	workers := max(c.workers, 1)
	if workers == 1 || n <= 1 {
		// One step after the other, through the same held writers as at
		// once: the row groups, and so the files' row counts and which
		// file a row lands in, are the same for any Workers.
		for p := range n {
			if err := c.ctx.Err(); err != nil {
				return err
			}
			rows := c.out.held()
			out := &stepOut{sinks: make([]sink, len(outs)), rows: rows}
			for i, s := range outs {
				out.sinks[i] = s
			}
			err := step(p, out)
			if err == nil {
				err = rows.seal()
			}
			if err == nil {
				err = rows.release()
			}
			if err == nil && out.apply != nil {
				err = out.apply()
			}
			if err != nil {
				return err
			}
			if done != nil {
				done(p, out.n)
			}
		}
		return nil
	}
	type result struct {
		out *stepOut
		err error
	}
	results := make([]chan result, n)
	for p := range results {
		results[p] = make(chan result, 1)
	}
	tokens := make(chan struct{}, workers)
	stop := make(chan struct{})
	var running sync.WaitGroup
	launched := make(chan struct{})
	go func() {
		defer close(launched)
		for p := range n {
			select {
			case tokens <- struct{}{}:
			case <-stop:
				return
			}
			running.Add(1)
			go func() {
				defer running.Done()
				rows := c.out.held()
				out := &stepOut{sinks: make([]sink, len(outs)), rows: rows}
				for i := range outs {
					out.sinks[i] = &bufSink{}
				}
				err := c.ctx.Err()
				if err == nil {
					err = step(p, out)
				}
				if err == nil {
					err = rows.seal()
				}
				results[p] <- result{out, err}
			}()
		}
	}()
	var err error
	for p := range n {
		r := <-results[p]
		err = r.err
		for i := 0; err == nil && i < len(outs); i++ {
			err = r.out.sinks[i].(*bufSink).drainTo(outs[i])
		}
		if err == nil {
			err = r.out.rows.(*writer).release()
		}
		if err == nil && r.out.apply != nil {
			err = r.out.apply()
		}
		if err != nil {
			break
		}
		if done != nil {
			done(p, r.out.n)
		}
		<-tokens
	}
	if err != nil {
		close(stop)
	}
	<-launched
	running.Wait()
	return err
}

// putRecords appends n records appendRecord encoded back to back in recs
// to partition i, as n calls of put would.
func (s *spill) putRecords(i int, recs []byte, n int) error {
	buf, err := s.partition(i)
	if err != nil {
		return err
	}
	return s.took(i, append(buf, recs...), n)
}
