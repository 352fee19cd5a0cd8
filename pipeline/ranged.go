package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// byteRange is the part of a file a ranged download asks for: n bytes at
// off, or, with off < 0 until the first answer says where the file ends,
// its last n bytes (a suffix range, RFC 9110 section 14.1.2). total is the
// file's length once an answer gave it (-1 before).
type byteRange struct {
	off, n int64
	total  int64
}

// header is the Range field of a request when got bytes were delivered.
func (r *byteRange) header(got int64) string {
	if r.off < 0 {
		return "bytes=-" + strconv.FormatInt(r.n, 10)
	}
	return "bytes=" + strconv.FormatInt(r.off+got, 10) + "-" + strconv.FormatInt(r.off+r.n-1, 10)
}

// answer checks a 206's Content-Range against what was asked (after got
// bytes): it must start where asked (for a suffix, anywhere: it says
// where the suffix begins) and end where asked, or at the file's end when
// the file is shorter than the range, which shortens the range.
func (r *byteRange) answer(cr string, got int64) error {
	start, end, total, ok := parseContentRange(cr)
	switch {
	case !ok || end < start:
		return fmt.Errorf("range %s: bad Content-Range %q", r.header(got), cr)
	case r.off < 0 && got == 0:
		r.off, r.n = start, end-start+1
	case start != r.off+got || end > r.off+r.n-1 || (end < r.off+r.n-1 && total >= 0 && end != total-1):
		return fmt.Errorf("range %s: answered with Content-Range %q", r.header(got), cr)
	default:
		r.n = end - r.off + 1
	}
	if total >= 0 {
		r.total = total
	}
	return nil
}

// whole adapts the range to a 200 answer of size bytes (a server that
// ignores Range; -1 when it did not say) and returns where the range
// begins in it, or -1 for a suffix of an answer of unknown length.
func (r *byteRange) whole(size int64) int64 {
	if size < 0 && r.off < 0 {
		return -1
	}
	if size >= 0 {
		r.total = size
		if r.off < 0 {
			r.off = max(size-r.n, 0)
		}
		r.n = max(min(r.n, size-r.off), 0)
	}
	return max(r.off, 0)
}

// limitBody reads at most n bytes of body, closing body on Close.
func limitBody(body io.ReadCloser, n int64) io.ReadCloser {
	return struct {
		io.Reader
		io.Closer
	}{io.LimitReader(body, n), body}
}

// openRange starts the download of part of url: n bytes at off, or the
// last n bytes when off < 0. It is a download like open's, paced, retried,
// resumed and timed out alike, holding a download slot until Close; the
// body holds at most n bytes, fewer when the file ends before the range
// does. A range that begins past the file's end is ErrFetch (416).
func (f *fetcher) openRange(ctx context.Context, url string, off, n int64) (io.ReadCloser, *byteRange, error) {
	select {
	case f.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	if err := f.stopped(url, nil); err != nil {
		<-f.slots
		return nil, nil, err
	}
	rng := &byteRange{off: off, n: n, total: -1}
	b := &httpBody{f: f, ctx: ctx, url: url, size: -1, rng: rng}
	if err := b.start(); err != nil {
		b.Close()
		return nil, nil, err
	}
	return b, rng, nil
}

// readRange reads part of a file or URL whole (see openRange): the bytes
// and the file's total length (-1 when no answer said).
func (r *runner) readRange(ctx context.Context, name string, off, n int64) ([]byte, int64, error) {
	if !isURL(name) {
		b, size, err := readFileRange(name, off, n)
		r.bytesRead.Add(int64(len(b)))
		return b, size, err
	}
	rc, rng, err := r.fetch.openRange(ctx, name, off, n)
	if err != nil && off < 0 && errors.Is(err, ErrRange) {
		// RFC 9110 section 14.1.2: a suffix longer than the file is the
		// whole file, but some S3-compatible stores answer 416: ask for
		// the first n bytes, which say the length, then the last.
		b, total, err := r.readRange(ctx, name, 0, n)
		if err != nil || total <= n || total < 0 {
			return b, total, err
		}
		return r.readRange(ctx, name, total-n, n)
	}
	if err != nil {
		return nil, -1, err
	}
	defer rc.Close()
	buf := make([]byte, 0, min(n, 16<<20))
	buf, err = readAllInto(buf, rc)
	if err != nil {
		return nil, rng.total, fmt.Errorf("read %s: %w", name, err)
	}
	r.bytesRead.Add(int64(len(buf)))
	return buf, rng.total, nil
}

// readFileRange is readRange of a local file.
func readFileRange(name string, off, n int64) ([]byte, int64, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, -1, fmt.Errorf("input: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, -1, fmt.Errorf("input: %w", err)
	}
	size := st.Size()
	if off < 0 {
		off = max(size-n, 0)
	}
	if off >= size && n > 0 {
		return nil, size, fmt.Errorf("%w %s: %w: range %d-%d begins past the end of the file (%d bytes)", ErrFetch, name, ErrRange, off, off+n-1, size)
	}
	buf := make([]byte, min(n, size-off))
	if _, err := f.ReadAt(buf, off); err != nil {
		return nil, size, fmt.Errorf("read %s: %w", name, err)
	}
	return buf, size, nil
}

// readAllInto reads r to its end, appending to buf.
func readAllInto(buf []byte, r io.Reader) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}
