// Package stats turns parse events and capture metadata into the numbers
// robotstat reports. It does no I/O.
package stats
