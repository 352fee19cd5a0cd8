// Package words holds the little English that robotstat's messages share:
// a noun or verb that agrees with its count, and byte sizes as people read
// them. One copy, so that every command says "1 input" and "2 inputs" alike.
package words

import "strconv"

// Plural returns one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Bytes writes n bytes in B, kB, MB or GB (powers of 1000): two decimals
// for GB, one for MB and kB.
func Bytes(n int64) string {
	switch {
	case n >= 1e9:
		return strconv.FormatFloat(float64(n)/1e9, 'f', 2, 64) + " GB"
	case n >= 1e6:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " MB"
	case n >= 1e3:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + " kB"
	}
	return strconv.FormatInt(n, 10) + " B"
}
