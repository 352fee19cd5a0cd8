package pipeline

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/klauspost/compress/zstd"
)

// zstd inputs are read frame by frame, like gzip member by member: the frame
// layout (RFC 8878 section 3.1) gives each block's size in a 3-byte header,
// so a frame's extent is known without decoding it. Every record is then
// located at its frame's offset, a broken frame costs only itself, and
// garbage between frames is skipped to the next frame magic. A frame larger
// than maxZstdFrame (one zstd stream for a whole file) is decoded streaming
// instead, and records after it are located at their decompressed offset.

const (
	maxZstdFrame     = 16 << 20 // compressed bytes held to decode one frame
	maxZstdBlock     = 128 << 10
	zstdSkippableLow = 0x184D2A50 // skippable frames: 0x184D2A50..0x184D2A5F
)

type zstdState struct {
	frame  []byte       // the current frame, as stored
	rd     bytes.Reader // over frame
	active bool         // s.zd is decoding a frame (or the rest, streaming)
	stream bool         // fell back to streaming for the rest of the input
	cut    bool         // the input ends inside the frame being decoded
}

// startZstd sets up the decoder, loading the dictionary that the IIPC
// .warc.zst layout stores in a leading skippable frame (itself optionally
// zstd-compressed; a zstd dictionary with magic 0xEC30A437, or raw content).
//
// It always leaves a decoder in s.zd. A dictionary that cannot be read or
// that the decoder rejects is returned as a data error and the input is
// read without it: frames compressed without a dictionary still decode, and
// each frame that needed it is a broken frame of its own.
func (s *stream) startZstd() error {
	// The bound against bombs is the window (Config.ZstdWindow): frames
	// are decoded streaming, where the decoder's memory cap is its window
	// cap too (WithDecoderMaxMemory's doc), so both are set to it.
	win := s.zstdWindow
	if win == 0 {
		win = DefaultZstdWindow
	}
	opts := []zstd.DOption{zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(uint64(win)), zstd.WithDecoderMaxMemory(uint64(win))}
	if s.zd != nil {
		s.zd.Close()
		s.zd = nil
	}
	dict, dictErr := s.readDict()
	if dict != nil {
		var dopt zstd.DOption
		if bytes.HasPrefix(dict, []byte{0x37, 0xa4, 0x30, 0xec}) {
			dopt = zstd.WithDecoderDicts(dict)
		} else {
			dopt = zstd.WithDecoderDictRaw(0, dict)
		}
		zd, err := zstd.NewReader(nil, append(opts, dopt)...)
		if err == nil {
			s.zd = zd
			return nil
		}
		dictErr = fmt.Errorf("%w: dictionary: %w", ErrZstd, err)
	}
	zd, err := zstd.NewReader(nil, opts...)
	if err != nil {
		// Only options make NewReader fail, and these are constant; still,
		// nextFrame ends the input rather than use a nil decoder.
		return fmt.Errorf("%w: %w", ErrZstd, err)
	}
	s.zd = zd
	return dictErr
}

// readDict reads the dictionary frame at the start of the input, if there
// is one: nil, nil when there is none.
func (s *stream) readDict() ([]byte, error) {
	head, _ := s.br.Peek(8)
	if !bytes.HasPrefix(head, zstdDictMagic) || len(head) < 8 {
		return nil, nil
	}
	n := binary.LittleEndian.Uint32(head[4:])
	if n > 64<<20 {
		return nil, fmt.Errorf("%w: dictionary frame of %d bytes", ErrZstd, n)
	}
	s.br.Discard(8)
	dict := make([]byte, n)
	if _, err := io.ReadFull(s.br, dict); err != nil {
		return nil, fmt.Errorf("%w: dictionary frame: %w", ErrZstd, err)
	}
	if bytes.HasPrefix(dict, zstdMagic) {
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(64<<20))
		if err != nil {
			return nil, fmt.Errorf("%w: dictionary: %w", ErrZstd, err)
		}
		dict, err = d.DecodeAll(dict, nil)
		d.Close()
		if err != nil {
			return nil, fmt.Errorf("%w: dictionary: %w", ErrZstd, err)
		}
	}
	return dict, nil
}

// readZstd decodes the next frame into held, or in direct mode (a frame
// past maxHeld, or the rest of the input streamed) the next bytes into p.
func (s *stream) readZstd(p []byte) (int, error) {
	z := &s.zst
	if !z.active {
		if s.done || s.zd == nil {
			return 0, io.EOF
		}
		if err := s.nextFrame(); err != nil {
			return 0, err
		}
	}
	var n int
	var err error
	if s.direct {
		n, err = s.zd.Read(p)
		s.dpos += int64(n)
		if err == nil {
			return n, nil
		}
	} else if err = s.hold(s.zd); err == nil {
		s.direct, s.gap = true, false
		return 0, nil
	}
	z.active, s.direct = false, false
	if err == io.EOF {
		s.gap = false
		if z.stream {
			z.stream, s.done = false, true
		}
		return n, nil // held, or (0, nil) for an empty frame: Read goes on
	}
	// A streamed frame has taken an unknown part of the input into the
	// decoder: resync from the byte after its start if the window still
	// holds it, else from wherever the reader is (what the decoder held is
	// lost).
	z.stream = false
	if env := s.win.failed(); env != nil {
		s.done = true
		s.held = s.held[:0]
		return n, env
	}
	if z.cut {
		err = fmt.Errorf("%w: %w", ErrTruncIn, err)
	} else if errors.Is(err, zstd.ErrWindowSizeExceeded) || errors.Is(err, zstd.ErrDecoderSizeExceeded) {
		err = s.windowErr(err)
	}
	return s.broken(n, fmt.Errorf("%w: %w", ErrZstd, err))
}

// nextFrame reads the next frame into z.frame and starts decoding it. It
// skips skippable frames and (reporting once per gap) garbage. It returns
// errBreak when the frame does not follow on from the data before it
// (garbage or a broken frame was skipped), and io.EOF at the end of the
// input.
func (s *stream) nextFrame() error {
	z := &s.zst
	gap := s.gap
	for {
		off := s.compressedPos()
		head, err := s.br.Peek(4)
		if len(head) == 0 {
			s.done = true
			if err == io.EOF || err == nil {
				return io.EOF
			}
			return err
		}
		if len(head) == 4 {
			m := binary.LittleEndian.Uint32(head)
			if m&0xFFFFFFF0 == zstdSkippableLow {
				hdr, _ := s.br.Peek(8)
				if len(hdr) == 8 {
					s.br.Discard(8)
					if _, err := s.br.Discard(int(binary.LittleEndian.Uint32(hdr[4:]))); err == nil {
						continue
					}
				}
				// A skippable frame longer than the rest of the input: a
				// false magic in garbage, or a cut. Look again from the
				// byte after it.
				if !gap {
					gap = true
					s.report(off, fmt.Errorf("%w: skippable frame: %w", ErrZstd, ErrTruncIn), nil)
				}
				s.restart(off)
				continue
			}
		}
		if !bytes.Equal(head, zstdMagic) {
			if !gap {
				gap = true
				ex, _ := s.br.Peek(maxExcerpt)
				s.report(off, ErrGarbage, ex)
			}
			if err := s.skipTo(zstdMagic); err != nil {
				return err
			}
			continue
		}
		s.coff = off
		s.marks = append(s.marks, memberMark{s.dpos, off})
		st := s.readFrame()
		if st == frameCut && s.magicAfter(off, zstdMagic) {
			// The input does not end inside this frame: it was cut
			// mid-file and its block headers walked the frames after it.
			st = frameCorrupt
		}
		if st == frameCorrupt {
			if env := s.win.failed(); env != nil {
				s.done = true
				return env
			}
			if !gap {
				s.report(off, fmt.Errorf("%w: malformed frame", ErrZstd), nil)
			}
			gap = true
			s.restart(off)
			continue
		}
		s.gap = gap // a frame after a gap is part of it until it decodes
		z.active, z.cut = true, false
		z.rd.Reset(z.frame)
		switch st {
		case frameWhole:
			err = s.zd.Reset(&z.rd)
		case frameTooBig:
			// Too big to hold: stream the rest of the input from here.
			z.stream = true
			err = s.zd.Reset(io.MultiReader(&z.rd, s.br))
		default:
			// The input ends inside the frame: decode what there is,
			// which reports the error after the last good block.
			s.done, z.cut = true, true
			err = s.zd.Reset(&z.rd)
		}
		if err != nil {
			// The decoder rejected the frame before its first block.
			z.active, z.stream = false, false
			if env := s.win.failed(); env != nil {
				s.done = true
				return env
			}
			if !gap {
				if errors.Is(err, zstd.ErrWindowSizeExceeded) || errors.Is(err, zstd.ErrDecoderSizeExceeded) {
					err = s.windowErr(err)
				}
				s.report(off, fmt.Errorf("%w: %w", ErrZstd, err), nil)
			}
			gap = true
			s.restart(off)
			continue
		}
		if gap {
			return errBreak
		}
		return nil
	}
}

// windowErr says what a frame over the window cap needs: its window, read
// from its header (RFC 8878 section 3.1.1.1.2), and what to do.
func (s *stream) windowErr(err error) error {
	f := s.zst.frame
	var w uint64
	if len(f) >= 6 && f[4]&0x20 == 0 {
		wd := f[5]
		base := uint64(1) << (10 + wd>>3)
		w = base + base/8*uint64(wd&7)
	}
	limit := s.zstdWindow
	if limit == 0 {
		limit = DefaultZstdWindow
	}
	return fmt.Errorf("%w: the frame's window is %s, over the %s a decoder may hold (--zstd-window; each input read at once holds one): raise it where the machine has the memory, or recompress with a smaller zstd --long", err, sizeString(int64(w)), sizeString(limit))
}

type frameStatus uint8

const (
	frameWhole   frameStatus = iota
	frameCut                 // the input ended inside the frame
	frameCorrupt             // reserved block type or impossible block size
	frameTooBig              // grew past maxZstdFrame
)

// readFrame reads the frame at the reader into z.frame, walking its block
// headers.
func (s *stream) readFrame() frameStatus {
	z := &s.zst
	z.frame = z.frame[:0]
	take := func(n int) bool {
		start := len(z.frame)
		z.frame = append(z.frame, make([]byte, n)...)[:start+n]
		k, err := io.ReadFull(s.br, z.frame[start:])
		z.frame = z.frame[:start+k]
		return err == nil
	}
	if !take(5) {
		return frameCut
	}
	fhd := z.frame[4]
	single := fhd&0x20 != 0
	n := 0
	if !single {
		n++ // window descriptor
	}
	n += [4]int{0, 1, 2, 4}[fhd&3]
	switch fhd >> 6 {
	case 0:
		if single {
			n++
		}
	case 1:
		n += 2
	case 2:
		n += 4
	case 3:
		n += 8
	}
	if !take(n) {
		return frameCut
	}
	for {
		if !take(3) {
			return frameCut
		}
		bh := uint32(z.frame[len(z.frame)-3]) | uint32(z.frame[len(z.frame)-2])<<8 | uint32(z.frame[len(z.frame)-1])<<16
		last, typ, size := bh&1 != 0, (bh>>1)&3, int(bh>>3)
		switch {
		case typ == 3 || size > maxZstdBlock:
			return frameCorrupt
		case typ == 1:
			size = 1 // RLE: one byte repeated
		}
		if len(z.frame)+size > maxZstdFrame {
			return frameTooBig
		}
		if !take(size) {
			return frameCut
		}
		if last {
			break
		}
	}
	if fhd&4 != 0 && !take(4) {
		return frameCut
	}
	return frameWhole
}

// sizeString writes a window size in the binary units zstd's tools use.
func sizeString(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + " GiB"
	case n >= 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', -1, 64) + " MiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
