package report

import "math/bits"

// siteFilter is a blocked Bloom filter over 64-bit key hashes: each key sets
// filterProbes bits inside one 512-bit block (one cache line), so an insert
// or a lookup costs one cache miss however many probes it makes.
//
// It is how the summary remembers, in memory that grows with a crawl's
// captures by about two bytes each rather than with the strings of its
// hosts, which hosts it has already counted and which captures it chose to
// stand for their site. A Bloom filter has no false negatives; its false
// positives make a new host look already counted (the site is missed) or a
// capture look chosen (its rows counted twice). At filterBitsPerKey = 16
// and 8 probes the rate is about 0.1% when the filter holds as many keys as
// it was sized for (TestSiteFilterFalsePositives), and negligible below
// filterMinBits: a dataset of less than a few million captures is counted
// exactly in practice.
//
// A siteFilter is not safe for concurrent use while it is written; has may
// be called concurrently once writes have stopped.
type siteFilter struct {
	blocks [][8]uint64
}

const (
	filterBitsPerKey = 16
	filterProbes     = 8
	filterMinBits    = 1 << 26 // 8 MiB
)

// reset empties the filter and sizes it for n keys, reusing its memory when
// it is large enough.
func (f *siteFilter) reset(n int64) {
	bitsWanted := max(n*filterBitsPerKey, filterMinBits)
	nb := int((bitsWanted + 511) / 512)
	if cap(f.blocks) >= nb {
		f.blocks = f.blocks[:nb]
		clear(f.blocks)
		return
	}
	f.blocks = make([][8]uint64, nb)
}

// bytes returns the filter's memory.
func (f *siteFilter) bytes() int64 { return int64(cap(f.blocks)) * 64 }

// block returns the block of h1 and the first probe state.
func (f *siteFilter) block(h1 uint64) *[8]uint64 {
	hi, _ := bits.Mul64(h1, uint64(len(f.blocks)))
	return &f.blocks[hi]
}

// add sets the key's bits and reports whether any was unset, that is
// whether the key was new (false positives aside).
func (f *siteFilter) add(h1, h2 uint64) bool {
	b := f.block(h1)
	x := h2
	added := false
	for range filterProbes {
		x = x*0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019
		pos := x >> 55 // 9 bits: 0..511
		w, m := pos>>6, uint64(1)<<(pos&63)
		if b[w]&m == 0 {
			b[w] |= m
			added = true
		}
	}
	return added
}

// has reports whether the key may have been added.
func (f *siteFilter) has(h1, h2 uint64) bool {
	if len(f.blocks) == 0 {
		return false
	}
	b := f.block(h1)
	x := h2
	for range filterProbes {
		x = x*0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019
		pos := x >> 55
		if b[pos>>6]&(uint64(1)<<(pos&63)) == 0 {
			return false
		}
	}
	return true
}

// mix64 is splitmix64's finaliser: it spreads every input bit over the
// output.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 27
	x *= 0x94D049BB133111EB
	x ^= x >> 31
	return x
}

// hashString returns two 64-bit hashes of s (FNV-1a, then mixed), the same
// on every run and platform, so the summary's choices never depend on a
// random seed.
func hashString(s string) (uint64, uint64) {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	h1 := mix64(h)
	return h1, mix64(h1 ^ 0x5851F42D4C957F2D)
}

// hashCaptureID returns two 64-bit hashes of a capture id. robotstat's ids
// are 32 hex digits of a SHA-256, already uniform, so they are used as they
// are; any other string is hashed.
func hashCaptureID(id string) (uint64, uint64) {
	if len(id) == 32 {
		a, ok1 := parseHex64(id[:16])
		b, ok2 := parseHex64(id[16:])
		if ok1 && ok2 {
			return a, b
		}
	}
	return hashString(id)
}

func parseHex64(s string) (uint64, bool) {
	var v uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | uint64(c)
	}
	return v, true
}
