// Command warccheck reads WARC files with an independent reader,
// github.com/nlnwa/gowarc (the Norwegian National Library's, written from
// ISO 28500 and used by its Veidemann crawler), in strict mode: every
// syntax error and specification violation fails, block and payload
// digests are recomputed, and the end-of-record marker is checked. It is
// the second reader robotstat scan's output is checked with (the first is
// package warc's Reader), so that a mistake shared by robotstat's writer and
// reader cannot pass.
//
//	go run ./scripts/warccheck DIR/warc/*.warc.gz
//
// prints the records by type and exits 1 at the first violation.
//
// One deviation of gowarc is allowed for: it digests a chunked response's
// payload with its chunk framing, where WARC 1.1 section 5.9 says the
// payload is the entity-body, transfer coding removed (iipc
// warc-specifications issue 22; warcio issue 74 and Heritrix issue 769 are
// the same deviation). For a response with Transfer-Encoding: chunked,
// warccheck takes gowarc's payload finding, removes the framing itself and
// checks the digest against the entity-body.
package main

import (
	"bytes"
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"io"
	"net/http/httputil"
	"os"
	"sort"
	"strings"

	"github.com/nlnwa/gowarc/v3"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: warccheck FILE.warc.gz...")
		os.Exit(2)
	}
	counts, err := check(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "warccheck:", err)
		os.Exit(1)
	}
	var types []string
	for t := range counts {
		types = append(types, t)
	}
	sort.Strings(types)
	for _, t := range types {
		fmt.Printf("%-10s %d\n", t, counts[t])
	}
}

// check reads every record of files strictly and counts them by type.
func check(files []string) (map[string]int, error) {
	counts := map[string]int{}
	for _, name := range files {
		r, err := gowarc.NewWarcFileReader(name, 0, gowarc.WithStrictValidation(), gowarc.WithSpecViolationPolicy(gowarc.ErrWarn))
		if err != nil {
			return counts, fmt.Errorf("%s: %w", name, err)
		}
		first := true
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				r.Close()
				uri := ""
				if rec.WarcRecord != nil {
					uri = rec.WarcRecord.WarcHeader().Get(gowarc.WarcTargetURI)
				}
				return counts, fmt.Errorf("%s: offset %d (%s): %w", name, rec.Offset, uri, err)
			}
			for _, v := range rec.Validation {
				if err := chunkedPayload(rec.WarcRecord, v); err != nil {
					r.Close()
					return counts, fmt.Errorf("%s: offset %d: %w", name, rec.Offset, err)
				}
				counts["(chunked payloads checked by warccheck)"]++
			}
			t := rec.WarcRecord.Type().String()
			if first && t != "warcinfo" {
				r.Close()
				return counts, fmt.Errorf("%s: first record is %s, want warcinfo", name, t)
			}
			first = false
			counts[t]++
			rec.Close()
		}
		r.Close()
	}
	return counts, nil
}

// chunkedPayload accepts gowarc's payload-digest finding v on a chunked
// response when the entity-body's digest is the recorded one; any other
// finding is returned.
func chunkedPayload(rec gowarc.WarcRecord, v error) error {
	block, ok := rec.Block().(gowarc.HttpResponseBlock)
	// The raw header: net/http moves Transfer-Encoding out of the parsed one.
	if !ok || !strings.HasPrefix(v.Error(), "payload: wrong digest") ||
		!strings.Contains(strings.ToLower(string(block.ProtocolHeaderBytes())), "\r\ntransfer-encoding: chunked\r\n") {
		return v
	}
	raw, err := block.PayloadBytes()
	if err != nil {
		return err
	}
	body, err := io.ReadAll(raw)
	if err != nil {
		return err
	}
	var ent bytes.Buffer
	_, err = io.Copy(&ent, httputil.NewChunkedReader(bytes.NewReader(body)))
	if err != nil && rec.WarcHeader().Get(gowarc.WarcTruncated) == "" {
		return fmt.Errorf("chunked payload: %w", err) // a cut body decodes as far as it goes
	}
	sum := sha1.Sum(ent.Bytes())
	if got, want := "sha1:"+base32.StdEncoding.EncodeToString(sum[:]), rec.WarcHeader().Get(gowarc.WarcPayloadDigest); got != want {
		return fmt.Errorf("chunked payload: entity-body digest %s, recorded %s (%v)", got, want, v)
	}
	return nil
}
