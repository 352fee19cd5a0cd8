package report

import (
	"fmt"
	"testing"
)

// TestSiteFilterFalsePositives fills a filter with exactly the keys it was
// sized for and measures how often a key never added looks present: the
// rate the package documentation promises for a full crawl.
func TestSiteFilterFalsePositives(t *testing.T) {
	if testing.Short() {
		t.Skip("fills an 8 MiB filter")
	}
	const n = filterMinBits / filterBitsPerKey // the floor's capacity
	var f siteFilter
	f.reset(n)
	if f.bytes() != filterMinBits/8 {
		t.Fatalf("filter of %d bytes", f.bytes())
	}
	for i := range n {
		f.add(hashString(fmt.Sprintf("host%d.example", i)))
	}
	for i := 0; i < n; i += 997 {
		if !f.has(hashString(fmt.Sprintf("host%d.example", i))) {
			t.Fatalf("host%d.example added but not found", i)
		}
	}
	const probes = 1_000_000
	fp := 0
	for i := range probes {
		if f.has(hashString(fmt.Sprintf("other%d.example", i))) {
			fp++
		}
	}
	rate := float64(fp) / probes
	t.Logf("false positive rate at capacity: %.4f%%", 100*rate)
	if rate > 0.003 {
		t.Errorf("false positive rate %.4f%%, want < 0.3%%", 100*rate)
	}
}

func TestSiteFilterSmallIsExact(t *testing.T) {
	var f siteFilter
	f.reset(10)
	for i := range 200_000 {
		if !f.add(hashString(fmt.Sprintf("h%d", i))) {
			t.Fatalf("h%d looked present before it was added", i)
		}
	}
	if f.add(hashString("h7")) {
		t.Error("h7 looked new the second time")
	}
	f.reset(10)
	if f.has(hashString("h7")) {
		t.Error("reset kept h7")
	}
}

func TestHashCaptureID(t *testing.T) {
	a1, a2 := hashCaptureID("0123456789abcdef0123456789ABCDEF")
	if a1 != 0x0123456789abcdef || a2 != 0x0123456789abcdef {
		t.Errorf("hex id hashed to %x %x", a1, a2)
	}
	b1, b2 := hashCaptureID("not-hex-but-thirty-two-bytes-xyz")
	c1, c2 := hashString("not-hex-but-thirty-two-bytes-xyz")
	if b1 != c1 || b2 != c2 {
		t.Error("non-hex id not hashed as a string")
	}
}

func BenchmarkSiteFilter(b *testing.B) {
	var f siteFilter
	f.reset(1 << 24)
	keys := make([][2]uint64, 4096)
	for i := range keys {
		keys[i][0], keys[i][1] = hashString(fmt.Sprint(i))
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		k := keys[i&4095]
		f.add(k[0]+uint64(i), k[1])
		i++
	}
}
