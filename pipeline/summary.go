package pipeline

import (
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// NumClasses bounds Class values: Summary.Errors is indexed by Class.
const NumClasses = int(numClasses)

// Summary describes a run. Run returns it also when it fails, filled as far
// as the run went. It is a plain value: keep it, copy it.
type Summary struct {
	Files           int // inputs read (after expansion and sharding)
	FilesWithErrors int // inputs with at least one data error
	Skipped         int // units Config.Skip skipped
	FailedUnits     int // units that failed under Config.KeepGoing
	// Duplicates counts the inputs listed more than once, or one file
	// named twice (through a symbolic or hard link), each read once, with
	// up to three of the names left out, each saying which it is the
	// same file as ("b.warc (the same file as a.warc)").
	Duplicates        int
	DuplicateExamples []string
	// OutputDirs counts the robotstat output folders (a folder with
	// _robotstat/, such as an --out inside the input folder) that folder
	// walks did not go into, with up to three of their paths below the
	// folder named.
	OutputDirs        int64
	OutputDirExamples []string
	// NotHosts counts the files of folders and tar archives that were not
	// read because their names are not host names (hostname.go), with up
	// to three of those names (paths), the lexically smallest.
	NotHosts        int64
	NotHostExamples []string
	// OtherResponses counts WARC response and resource records read past
	// because Config.Responses does not count them (a target path other
	// than /robots.txt outside a Common Crawl robotstxt WARC).
	OtherResponses int64
	// Empty counts the inputs read to their end that held no record or
	// row at all (an empty file, a CSV of a header alone, a gzip of
	// nothing), with up to three of their paths.
	Empty         int64
	EmptyExamples []string
	Records       int64 // WARC records (of every type) and dump rows seen
	Captures      int64 // captures handed to the consumer
	Bytes         int64 // input bytes read as stored (compressed)
	Errors        [NumClasses]int64
	Elapsed       time.Duration

	// Diagnostics lists the first Config.MaxDiagnostics data errors, in
	// the order they were found (across inputs read in parallel, that
	// order is not deterministic).
	Diagnostics []*ReadError
}

// ErrorCount is the number of data errors of every class.
func (s *Summary) ErrorCount() int64 {
	var n int64
	for _, v := range s.Errors {
		n += v
	}
	return n
}

// HadErrors reports that some input had data errors: a command maps it to
// its "read with errors" exit code.
func (s *Summary) HadErrors() bool { return s.ErrorCount() > 0 }

// Line formats the one-line summary a command prints at the end of every
// run, e.g.
//
//	3 files, 120000 captures (240001 records), 2 errors (container 1, record 1), 4.2 s, 95.3 MB/s
func (s *Summary) Line() string {
	b := make([]byte, 0, 160)
	b = count(b, int64(s.Files), " file")
	b = append(b, ", "...)
	b = count(b, s.Captures, " capture")
	b = append(b, " ("...)
	b = count(b, s.Records, " record")
	b = append(b, "), "...)
	b = count(b, s.ErrorCount(), " error")
	if s.HadErrors() {
		b = append(b, " ("...)
		first := true
		for c := Class(1); c < numClasses; c++ {
			if s.Errors[c] == 0 {
				continue
			}
			if !first {
				b = append(b, ", "...)
			}
			first = false
			b = append(b, c.String()...)
			b = append(b, ' ')
			b = strconv.AppendInt(b, s.Errors[c], 10)
		}
		b = append(b, ')')
	}
	secs := s.Elapsed.Seconds()
	b = append(b, ", "...)
	b = strconv.AppendFloat(b, secs, 'f', 1, 64)
	b = append(b, " s, "...)
	mbs := 0.0
	if secs > 0 {
		mbs = float64(s.Bytes) / 1e6 / secs
	}
	b = strconv.AppendFloat(b, mbs, 'f', 1, 64)
	b = append(b, " MB/s"...)
	return string(b)
}

// count appends n and the noun, plural unless n is 1.
func count(b []byte, n int64, noun string) []byte {
	b = strconv.AppendInt(b, n, 10)
	b = append(b, noun...)
	if n != 1 {
		b = append(b, 's')
	}
	return b
}

// collector counts and keeps data errors from every goroutine of a run.
type collector struct {
	counts [numClasses]atomic.Int64
	strict bool
	max    int

	mu    sync.Mutex
	diags []*ReadError
}

// add records e; under Strict it returns e, which ends the run.
func (c *collector) add(e *ReadError) error {
	c.counts[e.Class].Add(1)
	c.mu.Lock()
	if len(c.diags) < c.max {
		c.diags = append(c.diags, e)
	}
	c.mu.Unlock()
	if c.strict {
		return e
	}
	return nil
}
