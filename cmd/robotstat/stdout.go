package main

import "io"

// errWriter keeps the first error of the writes through it and drops the
// rest, so that a printer of many lines can be checked once at its end: a
// full disk or a closed pipe on stdout is a failed command, not exit 0
// with the data lost.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
