package ccindex

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
)

// Source is a file read by byte ranges: over HTTP Range requests, S3
// ranged GetObjects or a local file. ReadRange returns exactly the n bytes
// at off (or an error); Tail returns the last n bytes (fewer when the file
// is smaller) and the file's size, in one request where the transport
// allows it (a suffix range, bytes=-n). Both must be safe for concurrent
// use; errors are the transport's, returned as they are.
type Source interface {
	ReadRange(ctx context.Context, off, n int64) ([]byte, error)
	Tail(ctx context.Context, n int64) ([]byte, int64, error)
}

// Prefetcher is implemented by a ReaderAt that fetches ahead: Lookup tells
// it the byte ranges it is about to read ([2]int64{offset, length}), so
// that a remote file costs one request per run of nearby ranges rather
// than one per small read.
type Prefetcher interface {
	Prefetch(ranges [][2]int64) error
}

// RangeReader is an io.ReaderAt over a Source with a bounded block cache:
// parquet-go reads a page through a small buffer, a few KiB at a time, and
// without a cache every such read would be a request. A read of bytes not
// cached fetches the blocks it misses in one request, at least
// MinFetch bytes; Prefetch fetches whole ranges, coalescing those whose
// gap is under Gap into one request. The cache holds at most MaxCached
// bytes, the oldest blocks leaving first.
//
// A RangeReader is safe for concurrent use. Its context is the one given to
// NewRangeReader (ReaderAt has none); Stats says what it fetched.
type RangeReader struct {
	ctx  context.Context
	src  Source
	size int64

	mu     sync.Mutex
	blocks map[int64][]byte // block index -> its bytes (blockSize, the last one shorter)
	order  []int64          // blocks in the order they came, for eviction
	// seqNext is the block after the last one a read's miss fetched,
	// seqAhead how many bytes that fetch read: the read-ahead state.
	seqNext, seqAhead int64

	requests, bytes atomic.Int64
}

// Sizes of the cache. A block is small enough that a column index of a few
// hundred bytes does not cost much more, large enough that a page of
// 100 KiB is a handful of blocks.
const (
	blockSize = 16 << 10
	// MinFetch is the least a read that misses the cache fetches: parquet-go
	// reads pages with a 4 KiB buffer, and reading ahead keeps the next
	// few reads of the same page in the cache.
	MinFetch = 64 << 10
	// Gap is the largest gap between two prefetched ranges that still go in
	// one request: fetching 128 KiB too many costs less than a request.
	Gap = 128 << 10
	// MaxAhead bounds the read-ahead of sequential misses.
	MaxAhead = 8 << 20
	// MaxCached bounds the bytes a RangeReader holds: Lookup reads a
	// column chunk's pages at a time, a few MiB of a Common Crawl index
	// file, and a panel runs several lookups at once.
	MaxCached = 16 << 20
	// TailSize is how much of a file's end Open reads first: the footer of
	// an index file (its row groups' metadata) fits in it.
	TailSize = 64 << 10
)

// NewRangeReader returns a reader of a file of size bytes, with tail (the
// file's last bytes, as Source.Tail returned them) already cached.
func NewRangeReader(ctx context.Context, src Source, size int64, tail []byte) *RangeReader {
	r := &RangeReader{ctx: ctx, src: src, size: size, blocks: map[int64][]byte{}, seqNext: -1}
	if len(tail) > 0 {
		start := size - int64(len(tail))
		first := (start + blockSize - 1) / blockSize // the first block the tail holds whole
		for b := first; b*blockSize < size; b++ {
			lo := b*blockSize - start
			hi := min(lo+blockSize, int64(len(tail)))
			r.put(b, slices.Clone(tail[lo:hi]))
		}
	}
	return r
}

// Size is the file's size.
func (r *RangeReader) Size() int64 { return r.size }

// Stats returns the requests made and the bytes fetched so far.
func (r *RangeReader) Stats() (requests, bytes int64) { return r.requests.Load(), r.bytes.Load() }

// ReadAt reads len(p) bytes at off from the cache, fetching what it lacks.
func (r *RangeReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("ccindex: read at negative offset %d", off)
	}
	if off >= r.size {
		return 0, io.EOF
	}
	want := int(min(int64(len(p)), r.size-off))
	n := 0
	for n < want {
		if err := r.ensure(off+int64(n), int64(want-n)); err != nil {
			return n, err
		}
		k := r.copyOut(p[n:want], off+int64(n))
		if k == 0 {
			// Evicted between fetch and copy: only a read larger than
			// the cache can do this.
			return n, fmt.Errorf("ccindex: read of %d bytes at %d does not fit the %d-byte cache", len(p), off, MaxCached)
		}
		n += k
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// Prefetch fetches the ranges that are not cached, in as few requests as
// the gaps between them allow.
func (r *RangeReader) Prefetch(ranges [][2]int64) error {
	var runs [][2]int64 // missing blocks, as [first, last]
	r.mu.Lock()
	for _, rg := range ranges {
		off, n := rg[0], rg[1]
		if n <= 0 || off >= r.size {
			continue
		}
		end := min(off+n, r.size)
		for b := off / blockSize; b*blockSize < end; b++ {
			if r.blocks[b] == nil {
				runs = append(runs, [2]int64{b, b})
			}
		}
	}
	r.mu.Unlock()
	if len(runs) == 0 {
		return nil
	}
	slices.SortFunc(runs, func(a, b [2]int64) int { return int(a[0] - b[0]) })
	merged := runs[:1]
	for _, rn := range runs[1:] {
		last := &merged[len(merged)-1]
		if (rn[0]-last[1]-1)*blockSize <= Gap {
			last[1] = max(last[1], rn[1])
			continue
		}
		merged = append(merged, rn)
	}
	for _, rn := range merged {
		if err := r.fetchBlocks(rn[0], rn[1]); err != nil {
			return err
		}
	}
	return nil
}

// ensure makes the blocks of [off, off+n) cached, fetching the missing
// ones from the first missing block on: at least MinFetch bytes, and,
// when the miss continues where the last fetch ended (a column chunk read
// from start to end, where a file has no page index), twice what that
// fetch read, up to MaxAhead, as an operating system reads ahead.
func (r *RangeReader) ensure(off, n int64) error {
	first, last := off/blockSize, (off+n-1)/blockSize
	for {
		r.mu.Lock()
		miss := int64(-1)
		for b := first; b <= last; b++ {
			if r.blocks[b] == nil {
				miss = b
				break
			}
		}
		if miss < 0 {
			r.mu.Unlock()
			return nil
		}
		// Fetch from the first missing block to the last missing one of the
		// read, extended to least bytes while blocks are missing.
		least := int64(MinFetch)
		if miss == r.seqNext {
			least = min(max(2*r.seqAhead, MinFetch), MaxAhead)
		}
		end := miss
		for b := miss + 1; b <= last || (b-miss+1)*blockSize <= least; b++ {
			if b*blockSize >= r.size || r.blocks[b] != nil {
				break
			}
			end = b
		}
		r.seqNext, r.seqAhead = end+1, (end-miss+1)*blockSize
		r.mu.Unlock()
		if err := r.fetchBlocks(miss, end); err != nil {
			return err
		}
		first = end + 1
		if first > last {
			return nil
		}
	}
}

// fetchBlocks fetches blocks first..last in one request and caches them.
func (r *RangeReader) fetchBlocks(first, last int64) error {
	off := first * blockSize
	end := min((last+1)*blockSize, r.size)
	data, err := r.src.ReadRange(r.ctx, off, end-off)
	r.requests.Add(1)
	if err != nil {
		return err
	}
	if int64(len(data)) != end-off {
		return fmt.Errorf("ccindex: range %d-%d: got %d bytes", off, end-1, len(data))
	}
	r.bytes.Add(int64(len(data)))
	r.mu.Lock()
	defer r.mu.Unlock()
	for b := first; b <= last; b++ {
		lo := (b - first) * blockSize
		hi := min(lo+blockSize, int64(len(data)))
		r.put(b, data[lo:hi:hi])
	}
	return nil
}

// put caches block b, evicting the oldest blocks past MaxCached; r.mu is
// held.
func (r *RangeReader) put(b int64, data []byte) {
	if r.blocks[b] != nil {
		return
	}
	r.blocks[b] = data
	r.order = append(r.order, b)
	for int64(len(r.order))*blockSize > MaxCached {
		delete(r.blocks, r.order[0])
		r.order = r.order[1:]
	}
}

// copyOut copies cached bytes at off into p and returns how many it could.
func (r *RangeReader) copyOut(p []byte, off int64) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for n < len(p) {
		pos := off + int64(n)
		blk := r.blocks[pos/blockSize]
		at := pos % blockSize
		if blk == nil || at >= int64(len(blk)) {
			break
		}
		n += copy(p[n:], blk[at:])
	}
	return n
}
