package pipeline

import "io"

// A broken gzip member or zstd frame is found out only after the decoder
// has taken in bytes past where it starts: a member cut in its header reads
// the next member's header as the rest of its own, a false gzip magic in
// garbage with a large FEXTRA length reads everything after it as the extra
// field, a zstd frame cut mid-file walks the next frames' bytes as its
// blocks. Resynchronising from where the decoder stopped loses every member
// it swallowed. window keeps the last rewindSize bytes read from the input
// so that the stream can go back to one byte after the broken member's
// first byte and look for the next magic from there.

const (
	// rewindSize bounds how far back a broken member can be rescanned: a
	// member (or frame) is rescanned when its first byte is among the last
	// rewindSize bytes read. Per-record members are a few KiB; the bufio
	// reader in front reads at most compressedBufSize ahead.
	rewindSize = 512 << 10
	windowSize = 2 * rewindSize // sliding by rewindSize copies each byte once more
	// windowRead caps one read from the input, and firstRead the first:
	// the container is decided on the first bytes, and a plain input, which
	// needs no rescanning, then passes straight through, with only those
	// copied through the window.
	windowRead = compressedBufSize
	firstRead  = 4 << 10
)

// window reads an input through a buffer that remembers the last
// rewindSize bytes handed out. Errors from the input are sticky: once the
// input failed (or ended), every later read past the buffer returns the
// same error, so that a decoder that swallows an error cannot make the
// stream ask the input again. A window is not safe for concurrent use.
type window struct {
	r    io.Reader
	buf  []byte // input bytes from stored offset base
	base int64
	cur  int   // buf[cur] is the next byte to hand out
	keep bool  // remember bytes; false passes reads straight through once buf is drained
	err  error // sticky error from r
}

func (w *window) reset(r io.Reader) {
	w.r, w.base, w.cur, w.keep, w.err = r, 0, 0, true, nil
	w.buf = w.buf[:0]
}

// pos is the stored offset of the next byte Read hands out.
func (w *window) pos() int64 { return w.base + int64(w.cur) }

func (w *window) Read(p []byte) (int, error) {
	if w.cur == len(w.buf) {
		if w.err != nil {
			return 0, w.err
		}
		if !w.keep {
			w.base += int64(len(w.buf))
			w.buf, w.cur = w.buf[:0], 0
			n, err := w.r.Read(p)
			w.base += int64(n)
			if err != nil {
				w.err = err
				if n > 0 {
					err = nil
				}
			}
			return n, err
		}
		w.fill()
		if w.cur == len(w.buf) {
			return 0, w.err
		}
	}
	n := copy(p, w.buf[w.cur:])
	w.cur += n
	return n, nil
}

// fill reads more of the input into buf, sliding out all but the last
// rewindSize bytes when it is full.
func (w *window) fill() {
	if cap(w.buf) < windowSize {
		w.buf = make([]byte, 0, windowSize)
	}
	if len(w.buf) == cap(w.buf) {
		drop := len(w.buf) - rewindSize
		copy(w.buf, w.buf[drop:])
		w.buf = w.buf[:rewindSize]
		w.base += int64(drop)
		w.cur -= drop
	}
	want := windowRead
	if w.base == 0 && len(w.buf) == 0 {
		want = firstRead
	}
	n, err := w.r.Read(w.buf[len(w.buf):min(cap(w.buf), len(w.buf)+want)])
	w.buf = w.buf[:len(w.buf)+n]
	if err != nil {
		w.err = err
	}
}

// rewind makes stored offset off the next byte read, if the window still
// holds it.
func (w *window) rewind(off int64) bool {
	if off < w.base || off > w.base+int64(len(w.buf)) {
		return false
	}
	w.cur = int(off - w.base)
	return true
}

// since returns the bytes from stored offset off to the end of what was
// read, or nil when the window no longer holds off.
func (w *window) since(off int64) []byte {
	if off < w.base || off > w.base+int64(len(w.buf)) {
		return nil
	}
	return w.buf[off-w.base:]
}

// failed returns the input's error when the input failed (an environment
// error), nil when it is still good or merely ended.
func (w *window) failed() error {
	if w.err == io.EOF {
		return nil
	}
	return w.err
}
