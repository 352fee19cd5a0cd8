package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync/atomic"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/robotstat/robotstat/warc"
)

// errBreak is returned once by a stream's Read where broken compressed data
// was skipped: the bytes before it and after it are not contiguous, so a
// record that spans the break is incomplete. Reading again continues after
// the break. It is warc.ErrBreak, which the WARC reader takes as data.
var errBreak = warc.ErrBreak

// Magic numbers that select the container by content, never by file name.
var (
	gzipMagic     = []byte{0x1f, 0x8b, 0x08}
	zstdMagic     = []byte{0x28, 0xb5, 0x2f, 0xfd}
	zstdDictMagic = []byte{0x5d, 0x2a, 0x4d, 0x18} // skippable frame 0x184D2A5D: IIPC .warc.zst dictionary
)

type containerKind uint8

const (
	containerPlain containerKind = iota
	containerGzip
	containerZstd
)

// memberMark says that decompressed byte dpos is the first byte of the
// member (or frame, or stream) stored at compressed offset coff.
type memberMark struct{ dpos, coff int64 }

// countingReader counts bytes read from an input as stored (compressed) and
// publishes them for progress.
type countingReader struct {
	r     io.Reader
	n     int64
	total *atomic.Int64 // run-wide bytes read, for progress; may be nil
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.total != nil {
		c.total.Add(int64(n))
	}
	return n, err
}

// stream is the decompressed byte stream of one input. It reads gzip member
// by member (zstd frame by frame) so that a record that begins a member is
// located at the member's offset and a broken member costs only itself: on
// a data error it reports, delivers nothing of the member, goes back to the
// byte after its first byte (see window), skips to the next gzip magic and
// returns errBreak once. An environment error is returned on every Read
// from then on. It is not safe for concurrent use; reset it to reuse its
// buffers for the next input.
type stream struct {
	src  countingReader
	win  window        // between src and br: remembers what was read, for rescanning a broken member
	br   *bufio.Reader // compressed side; a *bufio.Reader lets flate use its fast path and stop exactly at a member's end
	kind containerKind
	gz   gzip.Reader
	zd   *zstd.Decoder

	inMember bool
	coff     int64 // offset of the current member or frame
	dpos     int64 // decompressed bytes delivered
	marks    []memberMark
	pending  error // errBreak to deliver before more data
	broke    bool  // errBreak was returned and no data since
	fail     error // the input failed (an environment error): every Read returns it
	done     bool
	gap      bool // skipping after a reported error: do not report again

	// A member (or frame) is decoded whole into held and delivered from
	// there only once it has ended well, its checksum verified: a member
	// that fails its CRC delivers nothing rather than its corrupt bytes. A
	// member that inflates past maxHeld is delivered as it is decoded from
	// then on (direct), and a failure after that is counted but cannot take
	// back what was delivered.
	held   []byte
	heldAt int // held[heldAt:] is still to deliver
	direct bool

	zst        zstdState
	zstdWindow int64 // Config.ZstdWindow; 0 is DefaultZstdWindow

	report func(off int64, err error, ex []byte) // reports a container error; set by the owner
	ctx    context.Context                       // checked on every read, so that a huge record stops on cancel
}

// compressedBufSize is small on purpose: flate reads the compressed side byte by
// byte, and a buffer that stays in L1 measured no slower than 256 KiB (the
// floor, gzip.NewReader, uses 4 KiB).
const compressedBufSize = 32 << 10

func (s *stream) reset(r io.Reader, total *atomic.Int64) error {
	s.src = countingReader{r: r, total: total}
	s.win.reset(&s.src)
	if s.br == nil {
		s.br = bufio.NewReaderSize(&s.win, compressedBufSize)
	} else {
		s.br.Reset(&s.win)
	}
	s.inMember, s.coff, s.dpos, s.pending, s.done, s.gap, s.broke, s.fail = false, 0, 0, nil, false, false, false, nil
	s.marks = s.marks[:0]
	s.held, s.heldAt, s.direct = s.held[:0], 0, false
	head, _ := s.br.Peek(4)
	switch {
	case bytes.HasPrefix(head, gzipMagic[:2]):
		s.kind = containerGzip
	case bytes.HasPrefix(head, zstdMagic), bytes.HasPrefix(head, zstdDictMagic):
		s.kind = containerZstd
		s.zst = zstdState{frame: s.zst.frame}
		return s.startZstd()
	default:
		s.kind = containerPlain
		s.win.keep = false // nothing to rescan: pass reads through
	}
	return nil
}

func (s *stream) close() {
	if s.zd != nil {
		s.zd.Close()
		s.zd = nil
	}
}

// offsetAt returns where the record at decompressed byte pos is located
// (Capture.Offset): the stored offset of its member when the record begins
// it, as with one member per record, else pos itself. A record inside a
// member that holds others (a whole-file gzip or zstd stream) has no stored
// offset of its own, and the member's offset would give every such record
// the same location. It forgets older members (pos only grows).
func (s *stream) offsetAt(pos int64) int64 {
	switch s.kind {
	case containerPlain:
		return pos
	}
	i := 0
	for i+1 < len(s.marks) && s.marks[i+1].dpos <= pos {
		i++
	}
	if i > 0 {
		s.marks = append(s.marks[:0], s.marks[i:]...)
	}
	if len(s.marks) > 0 && s.marks[0].dpos == pos {
		return s.marks[0].coff
	}
	return pos
}

// boundaryAfter returns the decompressed offset of the first member (or
// frame) known to begin after pos, or -1: warc.Reader.Boundary. Every member
// that begins before the end of what Read delivered is in marks.
func (s *stream) boundaryAfter(pos int64) int64 {
	for _, m := range s.marks {
		if m.dpos > pos {
			return m.dpos
		}
	}
	return -1
}

// compressedPos is the stored offset of the next unread compressed byte.
func (s *stream) compressedPos() int64 { return s.win.pos() - int64(s.br.Buffered()) }

// restart goes back to the byte after off, the first byte of a member or
// frame found broken, so that the members it swallowed are found again;
// when the window no longer holds that byte, reading goes on from where
// the decoder stopped.
func (s *stream) restart(off int64) {
	if s.win.rewind(off + 1) {
		s.br.Reset(&s.win)
		s.done = false
	}
}

// magicAfter reports a magic number among the bytes read after stored
// offset off (all of them still in the window): then a frame that the
// input ended inside of had swallowed the start of another, and was not
// merely the last one, cut. zstd's 4-byte magic is rare enough by chance
// in what a frame took in (once in 4 GiB).
func (s *stream) magicAfter(off int64, magic []byte) bool {
	b := s.win.since(off + 1)
	return b != nil && bytes.Contains(b, magic)
}

// memberAfter is magicAfter for gzip, whose 3-byte magic turns up by
// chance in 1 of 16 MiB of compressed data (3% of a 512 KiB window): it
// reports a complete gzip member, CRC checked, among the bytes read after
// off. It runs only when a member was cut by the end of the input.
func (s *stream) memberAfter(off int64) bool {
	b := s.win.since(off + 1)
	var rd bytes.Reader
	var gz *gzip.Reader
	for tries := 0; tries < 16; tries++ {
		i := bytes.Index(b, gzipMagic)
		if i < 0 {
			return false
		}
		b = b[i:]
		rd.Reset(b)
		var err error
		if gz == nil {
			gz, err = gzip.NewReader(&rd)
		} else {
			err = gz.Reset(&rd)
		}
		if err == nil {
			gz.Multistream(false)
			if _, err = io.Copy(io.Discard, gz); err == nil {
				return true
			}
		}
		b = b[1:]
	}
	return false
}

func (s *stream) Read(p []byte) (int, error) {
	if s.ctx != nil {
		if err := s.ctx.Err(); err != nil {
			return 0, err
		}
	}
	if s.fail != nil {
		return 0, s.fail
	}
	for {
		if s.heldAt < len(s.held) {
			n := copy(p, s.held[s.heldAt:])
			s.heldAt += n
			s.dpos += int64(n)
			s.broke = false
			return n, nil
		}
		var n int
		var err error
		switch {
		case s.pending != nil:
			err, s.pending = s.pending, nil
		case s.kind == containerPlain:
			n, err = s.br.Read(p)
			s.dpos += int64(n)
		case s.kind == containerZstd:
			n, err = s.readZstd(p)
		default:
			n, err = s.readGzip(p)
		}
		if err == io.EOF || (err != nil && err != errBreak) {
			// The end, or a failure of the input: sticky. An input that
			// failed never reads as one that ended, however the error
			// was passed up (a bufio.Reader hands an error out once, and
			// a caller holding bytes may not look at it).
			if env := s.win.failed(); env != nil {
				err = env
			}
			if err != io.EOF {
				s.fail = err
			}
			if n > 0 {
				return n, nil
			}
			return 0, err
		}
		if n > 0 {
			s.broke = false
		}
		if err == errBreak {
			if s.broke && n == 0 {
				continue // one break per discontinuity: a broken member, then the gap after it
			}
			s.broke = true
		}
		if n > 0 || err != nil {
			return n, err
		}
		// (0, nil): held was refilled, or a member was empty.
	}
}

// Bounds of held.
const (
	maxHeld = 4 << 20  // decompressed bytes of one member or frame held until it is verified
	minHeld = 64 << 10 // first allocation, and the least room a read into held gets
)

// hold decodes from dec into s.held until the member ends (io.EOF: it
// decoded and its checksum matched), fails (the error), or s.held reaches
// maxHeld (nil: deliver held, then the rest as it is decoded).
func (s *stream) hold(dec io.Reader) error {
	s.held, s.heldAt = s.held[:0], 0
	for len(s.held) < maxHeld {
		if cap(s.held)-len(s.held) < minHeld/2 && cap(s.held) < maxHeld {
			s.held = slices.Grow(s.held, min(max(2*cap(s.held), minHeld), maxHeld)-len(s.held))
		}
		n, err := dec.Read(s.held[len(s.held):cap(s.held)])
		s.held = s.held[:len(s.held)+n]
		if err != nil {
			return err
		}
	}
	return nil
}

// readGzip decodes the next gzip member into held, or in direct mode the
// next bytes of the current one into p.
func (s *stream) readGzip(p []byte) (int, error) {
	for {
		if !s.inMember {
			if err := s.nextMember(); err != nil {
				return 0, err
			}
		}
		var n int
		var err error
		if s.direct {
			n, err = s.gz.Read(p)
			s.dpos += int64(n)
			if err == nil {
				return n, nil
			}
		} else if err = s.hold(&s.gz); err == nil {
			s.direct, s.gap = true, false
			return 0, nil
		}
		s.inMember, s.direct = false, false
		if err == io.EOF {
			s.gap = false
			if n > 0 || len(s.held) > 0 {
				return n, nil
			}
			continue // an empty member
		}
		if env := s.win.failed(); env != nil {
			s.done = true
			s.held = s.held[:0]
			return n, env
		}
		if err == io.ErrUnexpectedEOF {
			if s.memberAfter(s.coff) {
				// Cut mid-file: what it decoded after the cut came from
				// the members after it.
				err = fmt.Errorf("cut short: %w", err)
			} else {
				err = ErrTruncIn
			}
		}
		return s.broken(n, fmt.Errorf("%w: %w", ErrGzip, err))
	}
}

// broken reports a broken gzip member or zstd frame and ends the contiguous
// data there: errBreak now, or after the n bytes decoded before the damage.
// A member the input ends inside is delivered as far as it decoded (the
// bytes before a cut are what was stored); any other broken member
// delivers nothing more (held is dropped: unverified, perhaps invented),
// and reading goes back to the byte after its start to find the members it
// swallowed.
func (s *stream) broken(n int, err error) (int, error) {
	if !s.gap {
		s.report(s.coff, err, nil)
	}
	s.gap = true
	if !errors.Is(err, ErrTruncIn) {
		s.held, s.heldAt = s.held[:0], 0
		s.restart(s.coff)
	}
	if n > 0 || s.heldAt < len(s.held) {
		s.pending = errBreak
		return n, nil
	}
	return 0, errBreak
}

// nextMember starts the next gzip member, skipping (and reporting once per
// gap) anything that is not one. It returns errBreak when the member does
// not follow on from the data before it (garbage or a broken member was
// skipped), and io.EOF at the end of the input.
func (s *stream) nextMember() error {
	gap := s.gap
	for {
		if s.done {
			return io.EOF
		}
		off := s.compressedPos()
		head, err := s.br.Peek(3)
		if len(head) == 0 {
			s.done = true
			if err == io.EOF || err == nil {
				return io.EOF
			}
			return err // environment: the input could not be read
		}
		if !bytes.Equal(head, gzipMagic) {
			if !gap {
				gap = true
				ex, _ := s.br.Peek(maxExcerpt)
				s.report(off, ErrGarbage, ex)
			}
			if err := s.skipTo(gzipMagic); err != nil {
				return err
			}
			continue
		}
		if err := s.gz.Reset(s.br); err != nil {
			if env := s.win.failed(); env != nil {
				s.done = true
				return env
			}
			if !gap {
				gap = true
				if err == io.EOF || err == io.ErrUnexpectedEOF {
					err = ErrTruncIn
				}
				s.report(off, fmt.Errorf("%w: header: %w", ErrGzip, err), nil)
			}
			// The header took in bytes after it that may be the next
			// member (a member cut in its header, a false magic whose
			// FEXTRA length runs on): look again from the byte after.
			s.restart(off)
			continue
		}
		s.gz.Multistream(false)
		s.gap = gap // a member after a gap is part of it until it decodes
		s.coff = off
		s.inMember = true
		s.marks = append(s.marks, memberMark{s.dpos, off})
		if gap {
			return errBreak
		}
		return nil
	}
}

// skipTo discards at least one byte and then up to the next magic, or to
// EOF.
func (s *stream) skipTo(magic []byte) error {
	if _, err := s.br.Discard(1); err != nil {
		return nil
	}
	for {
		buf, _ := s.br.Peek(s.br.Buffered())
		if len(buf) < len(magic) {
			var err error
			buf, err = s.br.Peek(len(magic))
			if len(buf) < len(magic) {
				s.br.Discard(len(buf))
				if err == io.EOF || err == nil {
					return nil
				}
				return err
			}
		}
		if i := bytes.Index(buf, magic); i >= 0 {
			s.br.Discard(i)
			return nil
		}
		s.br.Discard(len(buf) - len(magic) + 1)
		if _, err := s.br.Peek(len(magic)); err != nil && err != io.EOF {
			return err
		}
	}
}
