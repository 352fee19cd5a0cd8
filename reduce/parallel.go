package reduce

import (
	"encoding/binary"
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
// loop does one step at a time is copying bytes. At most Workers steps are started and not yet applied,
// so memory is Workers times a step's (its partition's state and its
// output, about a partition's records), never the whole crawl.

// stepOut is what one step writes: records for each output spill and rows.
// With one worker its sinks are the spills themselves; its rows go through
// a held writer at any Workers, released at the end of the step, so that
// the tables' row groups are the same for any Workers.
type stepOut struct {
	sinks []sink
	rows  rowSink
	// n are counts a step returns, added up in partition order by apply.
	n stepCounts
}

// stepCounts are what the loops count.
type stepCounts struct {
	sites siteCounts
	bots  botsCounts
}

// bufSink holds a step's records for one spill: their encodings back to
// back, each with its partition.
type bufSink struct {
	buf   []byte
	parts []int32
	ends  []int
}

func (b *bufSink) put(p int, r spillRecord) error {
	b.buf = r.appendTo(b.buf)
	b.parts = append(b.parts, int32(p))
	b.ends = append(b.ends, len(b.buf))
	return nil
}

// drainTo puts the held records into s, in the order they came.
func (b *bufSink) drainTo(s *spill) error {
	start := 0
	for i, end := range b.ends {
		if err := s.putBytes(int(b.parts[i]), b.buf[start:end]); err != nil {
			return err
		}
		start = end
	}
	b.buf, b.parts, b.ends = nil, nil, nil
	return nil
}

// steps runs step for the partitions 0 to n-1, up to c.workers at once,
// each writing to the output spills outs (through out.sinks, in that
// order) and rows (out.rows), and then calls done with each partition's
// counts in partition order. The first error stops the loop: no step is
// started after it, and it is returned once the running ones are done.
func (c *crawlRun) steps(n int, outs []*spill, step func(p int, out *stepOut) error, done func(p int, n stepCounts)) error {
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

// putBytes appends a record appendTo encoded to partition i, as put does.
func (s *spill) putBytes(i int, rec []byte) error {
	buf, err := s.partition(i)
	if err != nil {
		return err
	}
	buf = binary.AppendUvarint(buf, uint64(len(rec)))
	return s.took(i, append(buf, rec...))
}
