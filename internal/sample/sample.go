// Package sample is robotstat's embedded sample, what robotstat analyze
// reads when it is given no input: real robots.txt responses from a 2008
// Heritrix crawl (Apache-2.0) and made-up captures that show each case
// robotstat distinguishes, in one WARC. See README.md; regenerate it with
// go run ./scripts/mksample.
package sample

import (
	"bytes"
	_ "embed"
	"os"
	"path/filepath"
	"strconv"
)

//go:embed robotstat-sample.warc.gz
var warc []byte

// Name is the file name the sample is read under, so that its capture ids
// are the same on every run.
const Name = "robotstat-sample.warc.gz"

// WARC returns the sample's bytes, a copy of its own.
func WARC() []byte { return bytes.Clone(warc) }

// Unpack writes the sample into dir and returns it as the one input of a
// run, with the name function for runs.Config.Name: the sample named by
// its content, so that its capture ids and run id are the same on every
// run, whatever dir is; every other input named by others (pass
// runs.CanonicalInput).
func Unpack(dir string, others func(string) string) (inputs []string, name func(string) string, err error) {
	p := filepath.Join(dir, Name)
	if err := os.WriteFile(p, warc, 0o644); err != nil {
		return nil, nil, err
	}
	return []string{p}, func(n string) string {
		if n == p {
			return "robotstat:sample:" + strconv.Itoa(len(warc))
		}
		return others(n)
	}, nil
}
