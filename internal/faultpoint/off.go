//go:build !robotstat_faultpoints

package faultpoint

func at(string, string) {}
