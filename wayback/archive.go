package wayback

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/robotstat/robotstat/warc"
)

// A Response is an answer of the archive: the CDX API's, a replay's, or
// the archive's own redirect to the capture nearest a timestamp. A plain
// value; ReadSite keeps the ones it replayed (for digest reuse) and does
// not change them but for one header of its own.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// memento reports a replay of an archived capture (RFC 7089 §2.1.1): its
// status and headers are the capture's, not the archive's.
func (r *Response) memento() bool { return r.Header.Get("Memento-Datetime") != "" }

// Digest is the CDX form of a payload's digest: base32 SHA-1, as
// warc.SHA1Digest writes it without its "sha1:".
func Digest(body []byte) string { return strings.TrimPrefix(warc.SHA1Digest(body), "sha1:") }

// recordID is a record's id, derived from what it holds so that a rerun
// writes the same bytes.
func recordID(parts ...string) string {
	h := sha1.New()
	for _, p := range parts {
		io.WriteString(h, p)
		h.Write([]byte{0})
	}
	var u [16]byte
	copy(u[:], h.Sum(nil))
	return warc.UUID(u)
}

// httpBlock writes a response as an HTTP/1.1 message: its status line,
// header fields in name order and body.
func httpBlock(status int, h http.Header, body []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\n", status, http.StatusText(status))
	keys := slices.Sorted(maps.Keys(h))
	for _, k := range keys {
		for _, v := range h[k] {
			b.WriteString(k + ": " + strings.NewReplacer("\r", " ", "\n", " ").Replace(v) + "\r\n")
		}
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}

// responseRecord writes a WARC/1.1 response record (uncompressed) of r as
// fetched from target at date, r's payload digest beside it, refersTo (a
// replay's address, or "") as its WARC-Refers-To-Target-URI. Its
// WARC-Record-ID is derived from salt and what it holds, so that a rerun
// writes the same bytes.
func responseRecord(salt, target string, date time.Time, r *Response, h http.Header, refersTo string) []byte {
	block := httpBlock(r.Status, h, r.Body)
	return warc.AppendRecord(nil, &warc.RecordHeader{Type: "response", ID: recordID(salt, target, warc.Date(date), string(block)),
		Date: date, TargetURI: target, RefersToTargetURI: refersTo, ContentType: "application/http; msgtype=response",
		PayloadDigest: warc.SHA1Digest(r.Body)}, block)
}

// An archive keeps every answer of one site, each in a file of its own
// (one gzip member, one WARC record) named after its request, written to a
// temporary name and renamed: after a kill, a file there is whole, and is
// read back instead of fetching again. It is not synced (one fsync per
// request cost more than the request on a busy disk): after a power loss a
// file may be cut, and one that does not read back whole is fetched again.
// Not safe for concurrent use.
type archive struct {
	dir string // "" keeps nothing
}

// name is the file of a request's answer: replays by timestamp, then a
// hash of the URL; the CDX query as cdx-*.
func (a *archive) name(u string, ts string) string {
	h := sha1.Sum([]byte(u))
	if ts == "" {
		return filepath.Join(a.dir, "cdx-"+hex.EncodeToString(h[:6])+".warc.gz")
	}
	return filepath.Join(a.dir, ts+"-"+hex.EncodeToString(h[:6])+".warc.gz")
}

// load reads back an answer archived before, nil when there is none or
// it does not read back whole (it is then fetched and archived again).
func (a *archive) load(u, ts string) (*Response, error) {
	if a.dir == "" {
		return nil, nil
	}
	r, err := a.read(u, ts)
	if err != nil && !os.IsNotExist(err) {
		if _, serr := os.Stat(a.name(u, ts)); serr == nil {
			return nil, nil // cut or garbled: fetched again, and replaced
		}
		return nil, err
	}
	return r, nil
}

func (a *archive) read(u, ts string) (*Response, error) {
	f, err := os.Open(a.name(u, ts))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("archived answer %s: %w", f.Name(), err)
	}
	wr := warc.NewReader(zr)
	if !wr.Next() {
		return nil, fmt.Errorf("archived answer %s: no WARC record: %v", f.Name(), wr.Err())
	}
	block, _, err := wr.ReadBlock(nil, math.MaxInt)
	if err == nil && wr.Truncated() {
		err = errors.New("not a whole WARC record")
	}
	if err != nil {
		return nil, fmt.Errorf("archived answer %s: %w", f.Name(), err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(block)), nil)
	if err != nil {
		return nil, fmt.Errorf("archived answer %s: %w", f.Name(), err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("archived answer %s: %w", f.Name(), err)
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: body}, nil
}

// store archives an answer to u as a record dated date, as received
// (the archive's Memento-Datetime and Link included).
func (a *archive) store(u, ts string, date time.Time, r *Response) error {
	if a.dir == "" {
		return nil
	}
	if err := os.MkdirAll(a.dir, 0o755); err != nil {
		return err
	}
	h := r.Header.Clone()
	h.Del("Transfer-Encoding")
	h.Set("Content-Length", strconv.Itoa(len(r.Body)))
	rec := responseRecord("", u, date, r, h, "")
	name := a.name(u, ts)
	tmp, err := os.CreateTemp(a.dir, ".tmp-*")
	if err != nil {
		return err
	}
	zw := gzip.NewWriter(tmp)
	_, err = zw.Write(rec)
	if err == nil {
		err = zw.Close()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("archiving %s: %w", u, err)
	}
	return nil
}
