package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
	"github.com/robotstat/robotstat/internal/ascii"
	"github.com/robotstat/robotstat/warc"
)

// maxDecoded bounds how far an encoded payload is inflated to learn its true
// length: a decompression bomb costs at most this much CPU, and BodyLen is
// then a lower bound.
const maxDecoded = 256 << 20

// payloadDecoder removes transfer and content codings from payloads. It
// keeps its decompressors and output buffer between calls; one per worker,
// not safe for concurrent use.
type payloadDecoder struct {
	out []byte
	rd  bytes.Reader
	gz  gzip.Reader
	fl  io.ReadCloser
	zl  io.ReadCloser
	br  *brotli.Reader
	tmp []byte
}

// payload is a decoded body.
type payload struct {
	body      []byte // capped at the limit; aliases the block or the decoder's buffer
	n         int64  // true decoded length (a lower bound when cut or capped)
	truncated bool   // the coding ended early: the archive holds less than was sent
	err       error  // a broken coding (ErrChunked, ErrEncoding); the body is what decoded
}

// decode returns the body of p, the payload as stored, which it may
// rewrite in place (chunked framing is removed in place). stored is the
// payload's length as stored when p was cut at the record limit.
//
// Codings are removed only when the header names them and the bytes really
// are encoded: Common Crawl stores payloads decoded (renaming the headers to
// X-Crawler-*), and other tools sometimes decode without renaming.
func (d *payloadDecoder) decode(h *warc.HTTPHeader, p []byte, stored int64, limit int) payload {
	var r payload
	if h != nil && !h.Crawler && h.TransferEncoding != nil && containsTokenFold(h.TransferEncoding, "chunked") && looksChunked(p) {
		var ok bool
		p, ok, r.truncated = dechunk(p)
		if !ok {
			r.err = ErrChunked
		}
		stored = int64(len(p)) // best known
	}
	var ce []byte
	if h != nil && !h.Crawler && h.ContentEncoding != nil {
		ce = lastToken(h.ContentEncoding)
	}
	var src io.Reader
	switch {
	case ce == nil:
	case ascii.EqualFold(ce, "gzip") || ascii.EqualFold(ce, "x-gzip"):
		if bytes.HasPrefix(p, gzipMagic[:2]) {
			d.rd.Reset(p)
			if d.gz.Reset(&d.rd) == nil {
				src = &d.gz
			}
		}
	case ascii.EqualFold(ce, "deflate"):
		d.rd.Reset(p)
		if len(p) >= 2 && p[0]&0x0f == 8 && (uint(p[0])<<8|uint(p[1]))%31 == 0 {
			if d.zl == nil {
				z, err := zlib.NewReader(&d.rd)
				if err == nil {
					d.zl, src = z, z
				}
			} else if d.zl.(zlib.Resetter).Reset(&d.rd, nil) == nil {
				src = d.zl
			}
		} else {
			if d.fl == nil {
				d.fl = flate.NewReader(&d.rd)
			} else {
				d.fl.(flate.Resetter).Reset(&d.rd, nil)
			}
			src = d.fl
		}
	case ascii.EqualFold(ce, "br"):
		d.rd.Reset(p)
		if d.br == nil {
			d.br = brotli.NewReader(&d.rd)
		} else {
			d.br.Reset(&d.rd)
		}
		src = d.br
	}
	var out []byte
	var n int64
	var err error
	if src != nil {
		out, n, err = d.inflate(src, limit)
	}
	if src == nil || err != nil && n == 0 {
		// Not encoded, or named but not really encoded (a decoded payload
		// whose header was kept): the bytes are the body.
		r.body = p[:min(len(p), limit)]
		r.n = max(stored, int64(len(p)))
		return r
	}
	r.body, r.n = out, n
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		r.truncated = true
	case err != nil && r.err == nil:
		r.err = fmt.Errorf("%w: %s: %w", ErrEncoding, ce, err)
	}
	return r
}

// inflate reads src into d.out up to limit and counts the rest.
func (d *payloadDecoder) inflate(src io.Reader, limit int) ([]byte, int64, error) {
	if d.out == nil {
		d.out = make([]byte, 0, min(limit, 64<<10)) // grows to the largest body seen, at most limit
	}
	out := d.out[:0]
	var err error
	for len(out) < limit {
		if len(out) == cap(out) {
			out = append(out, 0)[:len(out)]
		}
		var n int
		n, err = src.Read(out[len(out):min(cap(out), limit)])
		out = out[:len(out)+n]
		if err != nil {
			break
		}
	}
	d.out = out[:0]
	n := int64(len(out))
	if err == nil {
		if d.tmp == nil {
			d.tmp = make([]byte, 32<<10)
		}
		for n < maxDecoded {
			var k int
			k, err = src.Read(d.tmp)
			n += int64(k)
			if err != nil {
				break
			}
		}
	}
	if err == io.EOF {
		err = nil
	}
	return out, n, err
}

// looksChunked reports whether p starts with a chunk-size line: hex digits,
// optional extensions, CRLF or LF.
func looksChunked(p []byte) bool {
	i := 0
	for i < len(p) && i <= maxChunkDigits && unhex(p[i]) >= 0 {
		i++
	}
	if i == 0 || i > maxChunkDigits {
		return false
	}
	for i < len(p) && (p[i] == ' ' || p[i] == '\t') {
		i++
	}
	if i < len(p) && p[i] == ';' {
		j := bytes.IndexByte(p[i:], '\n')
		return j > 0 && j < 1024
	}
	return i < len(p) && (p[i] == '\n' || p[i] == '\r' && i+1 < len(p) && p[i+1] == '\n')
}

// A chunk-size is bounded by value, not by digits (leading zeros are
// valid): fuzzing found "8000000000000000" overflowing int64 and, once
// digits were capped, "0000000000000000" wrongly rejected.
const (
	maxChunkSize   = 1 << 60
	maxChunkDigits = 64
)

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// dechunk removes chunked framing (RFC 9112 section 7.1) in place and
// returns the data. ok is false when the framing broke (the data is what
// came before); truncated says the input ended before the last chunk.
// Trailer fields are dropped.
func dechunk(p []byte) (data []byte, ok, truncated bool) {
	w, r := 0, 0
	for {
		// chunk-size [; ext] CRLF
		eol := bytes.IndexByte(p[r:], '\n')
		if eol < 0 {
			return p[:w], true, true
		}
		line := ascii.Trim(p[r:r+eol], &ascii.LineSpace)
		if i := bytes.IndexByte(line, ';'); i >= 0 {
			line = ascii.Trim(line[:i], &ascii.LineSpace)
		}
		if len(line) == 0 || len(line) > maxChunkDigits {
			return p[:w], false, false
		}
		var size int64
		for _, c := range line {
			v := unhex(c)
			if v < 0 || size > maxChunkSize>>4 {
				return p[:w], false, false
			}
			size = size<<4 | int64(v)
		}
		r += eol + 1
		if size == 0 {
			return p[:w], true, false
		}
		if size > int64(len(p)-r) {
			w += copy(p[w:], p[r:])
			return p[:w], true, true
		}
		w += copy(p[w:], p[r:r+int(size)])
		r += int(size)
		// CRLF after the data; tolerate LF or nothing at the very end.
		if r < len(p) && p[r] == '\r' {
			r++
		}
		if r < len(p) && p[r] == '\n' {
			r++
		} else if r < len(p) {
			return p[:w], false, false
		}
		if r == len(p) {
			return p[:w], true, true
		}
	}
}
