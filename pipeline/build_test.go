package pipeline

import (
	"archive/tar"
	"bytes"
	"compress/zlib"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Builders for made-up inputs. Compression uses the standard library where
// it has the codec (compress/zlib) so that this package's readers are
// checked against an independent writer.

// warcRecord returns one WARC/1.1 record with the given block.
func warcRecord(typ, uri string, block []byte, extra ...string) []byte {
	var b bytes.Buffer
	b.WriteString("WARC/1.1\r\nWARC-Type: " + typ + "\r\n")
	if uri != "" {
		b.WriteString("WARC-Target-URI: " + uri + "\r\n")
	}
	b.WriteString("WARC-Date: 2024-05-18T10:11:12Z\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000001>\r\n")
	for _, e := range extra {
		b.WriteString(e + "\r\n")
	}
	if typ == "response" {
		b.WriteString("Content-Type: application/http; msgtype=response\r\n")
	}
	b.WriteString("Content-Length: " + strconv.Itoa(len(block)) + "\r\n\r\n")
	b.Write(block)
	b.WriteString("\r\n\r\n")
	return b.Bytes()
}

// httpResp returns an HTTP response: status line, header lines, blank
// line, body, all with CRLF.
func httpResp(status string, body []byte, headers ...string) []byte {
	var b bytes.Buffer
	b.WriteString(status + "\r\n")
	for _, h := range headers {
		b.WriteString(h + "\r\n")
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}

func robotsResp(host, body string, headers ...string) []byte {
	return warcRecord("response", "https://"+host+"/robots.txt", httpResp("HTTP/1.1 200 OK", []byte(body), headers...))
}

func gzipMember(p []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(p)
	w.Close()
	return b.Bytes()
}

func gzipMembers(recs ...[]byte) []byte {
	var out []byte
	for _, r := range recs {
		out = append(out, gzipMember(r)...)
	}
	return out
}

func zlibBytes(p []byte) []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	w.Write(p)
	w.Close()
	return b.Bytes()
}

func rawDeflate(p []byte) []byte {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, 6)
	w.Write(p)
	w.Close()
	return b.Bytes()
}

func brotliBytes(p []byte) []byte {
	var b bytes.Buffer
	w := brotli.NewWriter(&b)
	w.Write(p)
	w.Close()
	return b.Bytes()
}

func zstdBytes(p []byte, opts ...zstd.EOption) []byte {
	e, err := zstd.NewWriter(nil, opts...)
	if err != nil {
		panic(err)
	}
	return e.EncodeAll(p, nil)
}

func chunked(p []byte, size int) []byte {
	var b bytes.Buffer
	for len(p) > 0 {
		n := min(size, len(p))
		b.WriteString(strconv.FormatInt(int64(n), 16) + "\r\n")
		b.Write(p[:n])
		b.WriteString("\r\n")
		p = p[n:]
	}
	b.WriteString("0\r\n\r\n")
	return b.Bytes()
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// writeTemp writes data to a file named name in a fresh folder.
func writeTemp(t testing.TB, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func tarFile(w io.Writer, files map[string]string) {
	tw := tar.NewWriter(w)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		tw.WriteHeader(&tar.Header{Name: "sites/" + n, Mode: 0o644, Size: int64(len(files[n])), Typeflag: tar.TypeReg, ModTime: time.Unix(1716027072, 0)})
		io.WriteString(tw, files[n])
	}
	tw.Close()
}

func sortedCopy(s []string) []string {
	c := append([]string(nil), s...)
	sort.Strings(c)
	return c
}
