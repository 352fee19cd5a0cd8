// Package faultpoint names the moments at which robotstat's kill tests
// stop a real robotstat process, so that a test can kill it exactly there
// (between the renames of a commit, say) instead of at a random moment it
// rarely hits.
//
// In a normal build [At] does nothing. Built with -tags
// robotstat_faultpoints (the kill tests build the binary so), At reads
// the environment variable ROBOTSTAT_FAULTPOINT once: when it equals
// point, or point:detail, At writes "robotstat: faultpoint POINT:DETAIL"
// on standard error and then blocks forever, for the test to send SIGKILL.
// It is the one place a library reads the environment, and only in that
// test build.
package faultpoint

// Env is the variable that names the fault point to stop at.
const Env = "ROBOTSTAT_FAULTPOINT"

// At marks the moment point (detail: which one, such as a run id).
func At(point, detail string) { at(point, detail) }
