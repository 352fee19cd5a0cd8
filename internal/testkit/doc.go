// Package testkit holds what the tests of several packages share, so that
// each is written once: child processes that a test kills and that never
// outlive it (proc.go), the first difference between two texts or two
// sorted row lists (diff.go), the shared fixtures under the module's
// top-level testdata/ and the real robots.txt corpus (testdata.go), and a
// Parquet file's rows as comparable strings (rows.go).
//
// It is imported by _test.go files only. Its functions take a testing.TB
// and fail or skip the test themselves; none keeps state between calls,
// and all are safe for concurrent use by parallel tests.
package testkit
