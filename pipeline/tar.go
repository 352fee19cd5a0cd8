package pipeline

import (
	"archive/tar"
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Tar archives (plain, gzip or zstd) hold one robots.txt per regular file,
// named by host as a folder's files are (hostname.go): hidden entries are
// read past, entries whose names are not host names counted in
// Summary.NotHosts. A hard link entry is a capture of the entry it names,
// as the extracted file would be (its bytes held while they fit
// tarLinkHold; a link beyond that is a counted row error); symbolic links,
// folders and devices are not read. A tar stream has no record separator, but every header is
// a 512-byte block with a checksum and, since POSIX.1-1988, the "ustar"
// magic at byte 257: after damage (a header that does not check out, a
// broken gzip member that leaves the stream misaligned) reading resumes at
// the next block, at any byte offset, that is a valid ustar header.

// tar reads a tar archive of files named by host. An entry the stream ends
// inside is delivered as far as it goes (BodyTruncated) and counted.
func (d *decoder) tar(ctx context.Context, rc io.Reader) error {
	if err := d.open(ctx, rc); err != nil {
		return err
	}
	if d.tbr == nil {
		d.tbr = bufio.NewReaderSize(&d.s, 64<<10)
	} else {
		d.tbr.Reset(&d.s)
	}
	d.tl.reset()
	ts := &d.ts
	*ts = tarSource{r: d.tbr, last: ts.last[:0], replay: ts.replay[:0]}
	pos := &countingReader{r: ts} // decompressed offset of what tar has read
	tr := tar.NewReader(pos)
	for idx := int64(0); ; idx++ {
		hdr, err := tr.Next()
		if err == io.EOF {
			return d.stop
		}
		if errors.Is(err, tar.ErrInsecurePath) && hdr != nil {
			err = nil // only the name's last element is used
		}
		if err != nil {
			if !isTarDataErr(err) {
				return err
			}
			if e := d.src.dataErr(pos.n, idx, ClassRow, errors.Join(ErrRow, err), nil); e != nil {
				return e
			}
			if errors.Is(err, tar.ErrHeader) && ts.lookBack(pos) {
				tr = tar.NewReader(pos)
				continue
			}
			if !d.resyncTar(pos) {
				return d.stop
			}
			tr = tar.NewReader(pos)
			continue
		}
		if d.stop != nil {
			return d.stop
		}
		link := hdr.Typeflag == tar.TypeLink
		if hdr.Typeflag != tar.TypeReg && !link {
			continue
		}
		d.src.records.Add(1) // an archive of hidden files only is not empty
		if hiddenPath(hdr.Name) {
			continue
		}
		host, ok := hostFromFileName(hdr.Name)
		if !ok {
			d.r.notHosts.add(d.src.path + ":" + hdr.Name)
			continue
		}
		d.r.records.Add(1)
		off := pos.n // the end of the entry's header: unique per entry
		if link {
			// A hard link: another name of a file stored earlier, whose
			// bytes it does not repeat (what GNU tar and bsdtar write
			// for a second name of one inode). Extracted, it is a file
			// like the first; so it is a capture of the first's bytes.
			held, ok := d.tl.get(hdr.Linkname)
			if !ok {
				if e := d.src.dataErr(off, idx, ClassRow, fmt.Errorf("%w: hard link %q names %q, %s", ErrRow, excerpt([]byte(hdr.Name)), excerpt([]byte(hdr.Linkname)), d.tl.why(hdr.Linkname)), nil); e != nil {
					return e
				}
				continue
			}
			if err := d.direct(ctx, off, idx, "https://"+host+"/robots.txt", 0, hdr.ModTime.UTC(), held.body, held.total, held.cut); err != nil {
				return err
			}
			continue
		}
		body, total, err := d.readBody(tr)
		if err != nil && !isTarDataErr(err) {
			return err
		}
		cut := total < hdr.Size
		d.tl.put(hdr.Name, body, total, cut)
		if cut {
			if e := d.src.dataErr(off, idx, ClassRow, fmt.Errorf("%w: %w: entry %q has %d of its %d bytes", ErrRow, ErrTruncIn, excerpt([]byte(hdr.Name)), total, hdr.Size), nil); e != nil {
				return e
			}
		}
		if err := d.direct(ctx, off, idx, "https://"+host+"/robots.txt", 0, hdr.ModTime.UTC(), body, total, cut); err != nil {
			return err
		}
		if cut {
			if !d.resyncTar(pos) {
				return d.stop
			}
			tr = tar.NewReader(pos)
		}
	}
}

// tarLinkHold caps the bytes of earlier entries a decoder holds for hard
// links to name: robots.txt files are small (a few KiB; BodyLimit at most
// each), so 16 MiB holds thousands, and a link to an entry dropped from
// the hold is a counted row error that says so, never a silent loss.
const tarLinkHold = 16 << 20

// tarLinks holds the bodies of a tar's regular entries, oldest dropped
// first past tarLinkHold, for the hard link entries that name them.
type tarLinks struct {
	byName map[string]*tarHeld
	order  []string // names in the order held
	bytes  int
	names  map[string]bool // every regular entry's name met, held or not
}

type tarHeld struct {
	body  []byte
	total int64
	cut   bool
}

func (l *tarLinks) reset() {
	clear(l.byName)
	clear(l.names)
	l.order, l.bytes = l.order[:0], 0
}

func (l *tarLinks) put(name string, body []byte, total int64, cut bool) {
	if l.byName == nil {
		l.byName, l.names = map[string]*tarHeld{}, map[string]bool{}
	}
	l.names[name] = true
	if old, ok := l.byName[name]; ok {
		l.bytes -= len(old.body)
	} else {
		l.order = append(l.order, name)
	}
	l.byName[name] = &tarHeld{append([]byte(nil), body...), total, cut}
	l.bytes += len(body)
	for l.bytes > tarLinkHold && len(l.order) > 1 {
		old := l.order[0]
		l.order = l.order[1:]
		if h, ok := l.byName[old]; ok && old != name {
			l.bytes -= len(h.body)
			delete(l.byName, old)
		}
	}
}

func (l *tarLinks) get(name string) (*tarHeld, bool) {
	h, ok := l.byName[name]
	return h, ok
}

// why says why a link's target is not held.
func (l *tarLinks) why(name string) string {
	if l.names[name] {
		return "an entry no longer held (over the " + strconv.Itoa(tarLinkHold>>20) + " MiB of earlier entries kept for links)"
	}
	return "no regular entry before it"
}

// isTarDataErr tells the errors of a damaged tar stream from environment
// failures, which the stream returns as they are.
func isTarDataErr(err error) bool {
	return err == errBreak || err == io.ErrUnexpectedEOF || errors.Is(err, tar.ErrHeader) ||
		errors.Is(err, tar.ErrFieldTooLong) || errors.Is(err, strconv.ErrSyntax)
}

var ustarMagic = []byte("ustar")

// tarSource is what tar.Reader reads: the stream, remembering the last
// block handed out. A header block tar.Reader rejects may hold the start of
// the next real header (garbage before it misaligned the stream), so
// lookBack searches it from its second byte before resyncTar searches on.
type tarSource struct {
	r      *bufio.Reader
	last   []byte // the last up to 512 bytes handed out
	replay []byte // bytes to hand out again before r
	scan   []byte // scratch for lookBack
}

func (t *tarSource) Read(p []byte) (int, error) {
	var n int
	var err error
	if len(t.replay) > 0 {
		n = copy(p, t.replay)
		t.replay = t.replay[n:]
	} else {
		n, err = t.r.Read(p)
	}
	if n >= 512 {
		t.last = append(t.last[:0], p[n-512:n]...)
	} else if n > 0 {
		if drop := len(t.last) + n - 512; drop > 0 {
			t.last = t.last[:copy(t.last, t.last[drop:])]
		}
		t.last = append(t.last, p[:n]...)
	}
	return n, err
}

// lookBack looks for a valid header starting inside the block just
// rejected, after its first byte; found, it hands the bytes from there out
// again and reports true.
func (t *tarSource) lookBack(pos *countingReader) bool {
	if len(t.replay) > 0 || len(t.last) < 2 {
		return false
	}
	ahead, _ := t.r.Peek(min(t.r.Buffered(), 511))
	if len(ahead) < 511 {
		ahead, _ = t.r.Peek(511)
	}
	t.scan = append(append(t.scan[:0], t.last[1:]...), ahead...)
	for h := 0; h < len(t.last)-1 && h+512 <= len(t.scan); h++ {
		if t.scan[h+257] == 'u' && bytes.HasPrefix(t.scan[h+257:], ustarMagic) && validTarHeader(t.scan[h:h+512]) {
			back := t.last[1+h:]
			t.replay = append(t.replay[:0], back...)
			pos.n -= int64(len(back))
			return true
		}
	}
	return false
}

// resyncTar skips to the next 512-byte block that is a ustar header whose
// checksum matches, at any offset after what tar.Reader has read (a header
// it rejected is skipped whole). It reports false at the end of the stream;
// an environment error ends it too and the caller's next read returns it.
func (d *decoder) resyncTar(pos *countingReader) bool {
	br := d.tbr
	for {
		buf, _ := br.Peek(br.Buffered())
		if len(buf) < 512 {
			var err error
			if buf, err = br.Peek(512); len(buf) < 512 {
				// Too few bytes to hold a header before a break (what
				// follows does not continue them) or the end.
				n, _ := br.Discard(len(buf))
				pos.n += int64(n)
				if err == errBreak {
					continue
				}
				return false
			}
		}
		i := bytes.Index(buf[257:], ustarMagic)
		if i < 0 {
			n, _ := br.Discard(len(buf) - 257 - len(ustarMagic) + 1)
			pos.n += int64(n)
			continue
		}
		if i+512 > len(buf) {
			n, _ := br.Discard(i)
			pos.n += int64(n)
			if buf, _ = br.Peek(512); len(buf) < 512 {
				continue
			}
			i = 0
		}
		if validTarHeader(buf[i : i+512]) {
			n, _ := br.Discard(i)
			pos.n += int64(n)
			return true
		}
		n, _ := br.Discard(i + 1)
		pos.n += int64(n)
	}
}

// validTarHeader checks a header block's checksum (the sum of its bytes
// with the checksum field read as spaces; old writers summed signed bytes).
func validTarHeader(b []byte) bool {
	field := bytes.TrimRight(bytes.TrimLeft(b[148:156], " \x00"), " \x00")
	want, err := strconv.ParseUint(string(field), 8, 32)
	if err != nil || len(field) == 0 {
		return false
	}
	var u, s int64
	for i, c := range b {
		if i >= 148 && i < 156 {
			c = ' '
		}
		u += int64(c)
		s += int64(int8(c))
	}
	return int64(want) == u || int64(want) == s
}
