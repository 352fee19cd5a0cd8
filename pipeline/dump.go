package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Dumps are the secondary sources: JSON Lines, CSV, tar archives and files
// named by host. They share the container layer (gzip or zstd by content)
// and turn each row or file into a direct job. Rows and entries, and their
// errors, are located by their offset in the decompressed dump (the same
// as in the plain file), never by the offset of a compressed member that
// many rows share.

// maxRow bounds one dump row in memory: a JSON line, or a CSV record with
// the line breaks inside its quoted fields. A longer one is a row error and
// reading resumes at the next line (see csvReader for what that means
// after a quote that is never closed).
const maxRow = 16 << 20

// direct hands one capture with known fields to the workers.
func (d *decoder) direct(ctx context.Context, off, idx int64, url string, status int, t time.Time, body []byte, bodyLen int64, cut bool) error {
	j, err := d.slot(ctx)
	if err != nil {
		return err
	}
	j.kind, j.src, j.crawl, j.offset, j.index = jobDirect, d.src, d.src.crawl, off, idx
	j.url, j.status, j.time = url, status, t
	j.block = append(j.block[:0], body[:min(len(body), d.r.cfg.BodyLimit)]...)
	j.stored, j.cut = max(bodyLen, int64(len(body))), cut
	return d.commit(ctx, len(j.block))
}

// jsonl reads JSON Lines: one object per line with the Config.Fields names.
func (d *decoder) jsonl(ctx context.Context, rc io.Reader) error {
	if err := d.open(ctx, rc); err != nil {
		return err
	}
	f := d.r.cfg.Fields
	br := bufio.NewReaderSize(&d.s, 64<<10)
	var pos, idx int64
	m := map[string]json.RawMessage{}
	for ; ; idx++ {
		start := pos
		line, err := readLine(br, &d.buf, &pos)
		if len(bytes.TrimSpace(line)) > 0 {
			d.r.records.Add(1)
			d.src.records.Add(1)
			if e := d.jsonRow(ctx, m, f, line, start, idx); e != nil {
				return e
			}
		}
		if d.stop != nil {
			return d.stop
		}
		if err == io.EOF {
			return nil
		}
		if err != nil && err != errBreak && err != errLineTooLong {
			return err
		}
		if err == errLineTooLong {
			d.r.records.Add(1)
			d.src.records.Add(1)
			if e := d.src.dataErr(start, idx, ClassRow, errJSONLTooLong, line); e != nil {
				return e
			}
		}
	}
}

func (d *decoder) jsonRow(ctx context.Context, m map[string]json.RawMessage, f Fields, line []byte, off, idx int64) error {
	clear(m)
	bad := func(why string) error {
		return d.src.dataErr(off, idx, ClassRow, fmt.Errorf("%w: %s", ErrRow, why), line)
	}
	if err := json.Unmarshal(line, &m); err != nil {
		return bad(jsonWhy(err))
	}
	var url, body, host string
	if raw, ok := m[f.URL]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &url); err != nil {
			return bad("field " + strconv.Quote(f.URL) + " is not a string")
		}
	}
	if url == "" {
		if raw, ok := m[f.Host]; ok {
			json.Unmarshal(raw, &host)
		}
		if host == "" {
			return bad("no string field " + strconv.Quote(f.URL) + " or " + strconv.Quote(f.Host))
		}
	}
	url, why := rowURL(url, host, f)
	if why != "" {
		return bad(why)
	}
	if raw, ok := m[f.Body]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &body); err != nil {
			return bad("field " + strconv.Quote(f.Body) + " is not a string")
		}
	}
	status := 0
	if raw, ok := m[f.Status]; ok {
		s := strings.Trim(string(raw), `"`)
		if n, err := strconv.Atoi(s); err == nil {
			status = n
		} else if s != "null" {
			return bad("field " + strconv.Quote(f.Status) + " is not a number")
		}
	}
	var t time.Time
	if raw, ok := m[f.Time]; ok && string(raw) != "null" {
		var err error
		if t, err = d.rowTime(bytes.Trim(raw, `"`), f, off, idx, line); err != nil {
			return err
		}
	}
	return d.direct(ctx, off, idx, url, status, t, []byte(body), int64(len(body)), false)
}

// jsonWhy says why a line is not a JSON object: another JSON value, JSON
// nested deeper than encoding/json reads, or where the syntax breaks.
func jsonWhy(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		return "a JSON " + te.Value + ", not an object"
	case errors.As(err, &se) && strings.Contains(se.Error(), "max depth"):
		return "JSON nested deeper than 10000 levels (encoding/json's limit)"
	case errors.As(err, &se):
		return "malformed JSON at byte " + strconv.FormatInt(se.Offset, 10) + ": " + se.Error()
	}
	return "malformed JSON: " + err.Error()
}

// rowURL returns the URL of a dump row from its url field, else its host
// field, or why the row has none: a url that is not an absolute http(s)
// URL (a bare host, example.com, in the url column is the usual case) or
// a host that is not a host name is a row error, never a capture without
// a host.
func rowURL(url, host string, f Fields) (string, string) {
	if url != "" {
		if isURL(url) && len(url) > len("https://") {
			return url, ""
		}
		if h, ok := validHost(url); ok && f.Host == f.URL { // --fields host=url: the column holds hosts
			return "https://" + h + "/robots.txt", ""
		}
		why := "field " + strconv.Quote(f.URL) + " holds " + strconv.Quote(excerpt([]byte(url))) + ", not an absolute http(s) URL"
		if _, ok := validHost(url); ok {
			why += " (a host? name its column with --fields host=" + f.URL + ")"
		}
		return "", why
	}
	if host == "" {
		return "", "no " + strconv.Quote(f.URL) + " or " + strconv.Quote(f.Host) + " field in the row"
	}
	h, ok := validHost(strings.TrimSpace(host))
	if !ok {
		return "", "field " + strconv.Quote(f.Host) + " holds " + strconv.Quote(excerpt([]byte(host))) + ", not a host name"
	}
	return "https://" + h + "/robots.txt", ""
}

// rowTime reads a dump row's time field. A value that is not a time is a
// row error that keeps the capture (without a fetch time), so that a
// column of another format is seen rather than read as NULL.
func (d *decoder) rowTime(v []byte, f Fields, off, idx int64, row []byte) (time.Time, error) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return time.Time{}, nil
	}
	t, ok := parseTime(v)
	if !ok {
		err := fmt.Errorf("%w: field %q holds %q, not a time (RFC 3339, YYYY-MM-DD[ hh:mm:ss], 14-digit WARC date or Unix seconds); the capture is kept without a fetch time", ErrRow, f.Time, excerpt(v))
		return t, d.src.dataErr(off, idx, ClassRow, err, row)
	}
	return t, nil
}

var errLineTooLong = errors.New("line too long")

// errJSONLTooLong is the row error of a JSON line over maxRow.
var errJSONLTooLong = fmt.Errorf("%w: a JSON line longer than 16 MiB (cut, or never ended?): reading resumes at the next line", ErrRow)

// readLine reads one LF-terminated line into *buf (reused), advancing *pos.
func readLine(br *bufio.Reader, buf *[]byte, pos *int64) ([]byte, error) {
	b := (*buf)[:0]
	for {
		part, err := br.ReadSlice('\n')
		*pos += int64(len(part))
		if len(b)+len(part) <= maxRow {
			b = append(b, part...)
		} else {
			for err == bufio.ErrBufferFull {
				part, err = br.ReadSlice('\n')
				*pos += int64(len(part))
			}
			*buf = b
			if err == nil || err == io.EOF || err == errBreak {
				// Too long, whether the line ended, the stream ended
				// inside it (a cut last row) or broke: a counted row
				// either way. The end or break shows again on the
				// next read.
				err = errLineTooLong
			}
			return b[:0], err
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		*buf = b
		return b, err
	}
}

// csv reads CSV with a header row naming the Config.Fields columns; a
// "host" column stands in for a missing url column.
func (d *decoder) csv(ctx context.Context, rc io.Reader) error {
	if err := d.open(ctx, rc); err != nil {
		return err
	}
	f := d.r.cfg.Fields
	cr := &d.cr
	cr.reset(&d.s)
	// read returns the next record, counting the ones it cannot read.
	read := func(idx int64) (int64, error) {
		for {
			off, err := cr.read()
			var re *csvRowError
			if !errors.As(err, &re) {
				if err == nil {
					err = d.stop
				}
				return off, err
			}
			if e := d.src.dataErr(re.off, idx, ClassRow, errors.Join(ErrRow, re.err), re.ex); e != nil {
				return off, e
			}
		}
	}
	if _, err := read(-1); err != nil {
		if err == io.EOF {
			return d.stop
		}
		return err
	}
	col := map[string]int{}
	for i := range cr.ends {
		col[strings.TrimSpace(strings.ToLower(string(cr.fieldAt(i))))] = i
	}
	index := func(name string) int { // once per input; -1 when absent
		if i, ok := col[strings.ToLower(name)]; ok {
			return i
		}
		return -1
	}
	urlCol, hostCol, bodyCol, statusCol, timeCol := index(f.URL), index(f.Host), index(f.Body), index(f.Status), index(f.Time)
	if urlCol < 0 && hostCol < 0 {
		names := make([]string, len(cr.ends))
		for i := range cr.ends {
			names[i] = strconv.Quote(excerpt(cr.fieldAt(i)))
		}
		// Data, not an environment failure: the input is read to its
		// end as one counted, located row error (no row can be read).
		return d.src.dataErr(0, -1, ClassRow, fmt.Errorf("%w: %w (looked for %q and %q; it has %s): name the column with --fields url=COLUMN or --fields host=COLUMN", ErrRow, ErrNoURLColumn, f.URL, f.Host, strings.Join(names, ", ")), nil)
	}
	for idx := int64(0); ; idx++ {
		start, err := read(idx)
		if err == io.EOF {
			return d.stop
		}
		if err != nil {
			return err
		}
		d.r.records.Add(1)
		d.src.records.Add(1)
		url, why := rowURL(strings.TrimSpace(string(cr.fieldAt(urlCol))), string(cr.fieldAt(hostCol)), f)
		if why != "" {
			if e := d.src.dataErr(start, idx, ClassRow, fmt.Errorf("%w: %s", ErrRow, why), nil); e != nil {
				return e
			}
			continue
		}
		body := cr.fieldAt(bodyCol)
		status, _ := strconv.Atoi(string(bytes.TrimSpace(cr.fieldAt(statusCol))))
		t, err := d.rowTime(cr.fieldAt(timeCol), f, start, idx, nil)
		if err != nil {
			return err
		}
		if err := d.direct(ctx, start, idx, url, status, t, body, int64(len(body)), false); err != nil {
			return err
		}
	}
}

// readBody reads a file's content into d.buf up to the body limit and
// counts the rest: it returns the bytes kept, the content's length as read
// and the error that ended it early (nil at a clean end).
func (d *decoder) readBody(r io.Reader) ([]byte, int64, error) {
	limit := d.r.cfg.BodyLimit
	// The buffer grows with the body, never to the limit at once: with
	// --parse-limit -1 the limit is 1 GiB, and every decoder took that
	// for a file of a few KiB. A large one is let go at the next call.
	if cap(d.buf) > keepBlock {
		d.buf = nil
	}
	if d.buf == nil {
		d.buf = make([]byte, 0, min(limit, keepBlock))
	}
	b := d.buf[:0]
	var err error
	for len(b) < limit && err == nil {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		var k int
		k, err = r.Read(b[len(b):min(cap(b), limit)])
		b = b[:len(b)+k]
	}
	d.buf = b
	n := len(b)
	total := int64(n)
	if err == io.EOF {
		err = nil // shorter than the limit
	} else if err == nil {
		k, err2 := io.Copy(io.Discard, r)
		total += k
		err = err2
	}
	return b, total, err
}

// hostFile reads one file named by host (example.com-robots.txt).
func (d *decoder) hostFile(ctx context.Context, rc io.Reader) error {
	if err := d.open(ctx, rc); err != nil {
		return err
	}
	d.r.records.Add(1)
	d.src.records.Add(1)
	body, total, err := d.readBody(&d.s)
	cut := false
	if err == errBreak {
		// A broken member: what follows is not this file's next bytes.
		if e := d.src.dataErr(0, 0, ClassRow, errors.Join(ErrRow, ErrTruncIn), nil); e != nil {
			return e
		}
		err, cut = nil, true
	}
	if err == nil {
		err = d.stop
	}
	if err != nil {
		return err
	}
	host, _ := hostFromFileName(d.src.name) // expand took only host names
	return d.direct(ctx, 0, 0, "https://"+host+"/robots.txt", 0, time.Time{}, body, total, cut)
}
