package pipeline

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

const robotsBody = "User-agent: *\nDisallow: /private/\n\nSitemap: https://example.com/sitemap.xml\n"

// TestBadInputs feeds made-up damage through the whole pipeline: each case
// says how many records and captures survive and which errors are counted.
func TestBadInputs(t *testing.T) {
	t.Parallel()
	good := func(host string) []byte { return robotsResp(host, robotsBody, "Content-Type: text/plain") }
	html := []byte("<!DOCTYPE html>\n<html><head><title>503 Service Unavailable</title></head><body>try later</body></html>\n")
	body := []byte(robotsBody)
	member2 := gzipMember(good("b.example"))
	corrupt := bytes.Clone(member2)
	for i := 20; i < len(corrupt)-12; i += 7 {
		corrupt[i] ^= 0x55
	}
	zc := zstdBytes(good("c.example"))
	zstdCut := cat(zstdBytes(good("a.example")), zstdBytes(good("b.example")), zc[:len(zc)/2])
	big := make([]byte, 200000)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range big {
		big[i] = "0123456789abcdef"[rng.IntN(16)]
	}
	bigMember := gzipMember(robotsResp("b.example", string(big)))
	lfBlock := "HTTP/1.0 301 Moved\nLocation: https://www.a.example/robots.txt\n\n"
	// A frame whose header sets the reserved bit, small (held whole) and
	// over maxZstdFrame compressed (decoded streaming): random bytes do
	// not compress.
	reserved := func(size int) []byte {
		noise := make([]byte, size)
		for i := range noise {
			noise[i] = byte(rng.Uint32())
		}
		f := zstdBytes(robotsResp("bad.example", string(noise)))
		f[4] |= 0x08 // frame header descriptor, reserved bit
		return cat(zstdBytes(good("a.example")), f, zstdBytes(good("c.example")))
	}

	// A gzip magic in garbage with FEXTRA set and an extra field of 41933
	// bytes: longer than what follows in one case, covering 200 real
	// members in the other.
	fakeMagic := []byte{0x1f, 0x8b, 0x08, 0x04, 0, 0, 0, 0, 0, 0xff, 0xcd, 0xa3}
	var many [][]byte
	for i := range 200 {
		many = append(many, good("m"+strconv.Itoa(i)+".example"))
	}
	manyMembers := gzipMembers(many...)
	badSum := zstdBytes(good("b.example"))
	badSum[len(badSum)-1] ^= 1 // the frame's XXH64 checksum
	overHeld := gzipMember(robotsResp("big.example", strings.Repeat("Disallow: /x\n", maxHeld/10)))
	overHeld[len(overHeld)-8] ^= 1 // the CRC

	type want struct {
		records, captures int64
		errs              map[Class]int64
		first             error // the first diagnostic wraps it
	}
	tests := []struct {
		name  string
		file  string
		data  []byte
		want  want
		check func(t *testing.T, caps []got)
	}{
		{"content_length_past_eof", "x.warc", cat(good("a.example"), []byte("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://b.example/robots.txt\r\nContent-Length: 100000\r\n\r\nHTTP/1.1 200 OK\r\n\r\nUser-agent: *\n")),
			want{2, 2, map[Class]int64{ClassRecord: 1}, ErrTruncIn}, func(t *testing.T, caps []got) {
				if c := caps[1]; !c.BodyTruncated || c.Body != "User-agent: *\n" || c.Status != 200 {
					t.Errorf("%+v %q", c.Capture, c.Body)
				}
			}},
		{"header_no_blank_line", "x.warc", cat([]byte("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://a.example/robots.txt\r\nContent-Length: 20\r\nHTTP/1.1 200 OK\r\nUser-agent: *\r\n\r\n"), good("b.example")),
			want{2, 1, map[Class]int64{ClassRecord: 1}, ErrHeaderNoEnd}, nil},
		{"header_10MB_line", "x.warc", cat([]byte("WARC/1.0\r\nWARC-Type: response\r\nX-Junk: "), bytes.Repeat([]byte("a"), 10<<20), []byte("\r\nContent-Length: 5\r\n\r\nhello\r\n\r\n"), good("b.example")),
			want{2, 1, map[Class]int64{ClassRecord: 1}, ErrHeaderTooLong}, func(t *testing.T, caps []got) {
				if caps[0].URL != "https://b.example/robots.txt" {
					t.Errorf("%+v", caps[0].Capture)
				}
			}},
		{"nul_bytes", "x.warc", cat(robotsResp("a.example", "User-agent: *\x00\nDisallow: /\x00x\n"), bytes.Repeat([]byte{0}, 300), good("b.example")),
			want{2, 2, map[Class]int64{ClassContainer: 1}, ErrGarbage}, func(t *testing.T, caps []got) {
				if caps[0].Body != "User-agent: *\x00\nDisallow: /\x00x\n" {
					t.Errorf("NUL bytes in the body must survive: %q", caps[0].Body)
				}
			}},
		{"zero_length_members", "x.warc.gz", cat(gzipMember(nil), gzipMember(good("a.example")), gzipMember(nil), gzipMember(nil), gzipMember(good("b.example")), gzipMember(nil)),
			want{2, 2, nil, nil}, nil},
		{"truncated_zstd_frame", "x.warc.zst", zstdCut,
			want{2, 2, map[Class]int64{ClassContainer: 1}, ErrZstd}, nil},
		{"zstd_reserved_bit", "x.warc.zst", reserved(1000),
			want{2, 2, map[Class]int64{ClassContainer: 1}, ErrZstd}, nil},
		{"broken_streamed_zstd_frame_resyncs", "x.warc.zst", reserved(maxZstdFrame + 1<<20),
			want{2, 2, map[Class]int64{ClassContainer: 1}, ErrZstd}, nil},
		{"html_error_page", "x.warc.gz", html,
			want{0, 0, map[Class]int64{ClassContainer: 1}, ErrNotWARC}, nil},
		{"html_error_page_gzipped", "x.warc.gz", gzipMember(html),
			want{0, 0, map[Class]int64{ClassContainer: 1}, ErrNotWARC}, nil},
		{"garbage_between_members", "x.warc.gz", cat(gzipMember(good("a.example")), []byte("junk\x1f\x8b not gzip \x00\x00"), gzipMember(good("b.example"))),
			want{2, 2, map[Class]int64{ClassContainer: 1}, ErrGarbage}, nil},
		{"member_cut_in_header", "x.warc.gz", cat(gzipMember(good("a.example")), gzipMember(good("b.example"))[:5], gzipMember(good("c.example"))),
			want{2, 2, map[Class]int64{ClassContainer: 1}, ErrGzip}, urlsAre("a.example", "c.example")},
		{"false_magic_fextra_past_eof", "x.warc.gz", cat(gzipMember(good("a.example")), fakeMagic, gzipMember(good("b.example")), gzipMember(good("c.example"))),
			want{3, 3, map[Class]int64{ClassContainer: 1}, ErrGzip}, urlsAre("a.example", "b.example", "c.example")},
		{"zstd_frame_cut_mid_file", "x.warc.zst", cat(zstdBytes(good("a.example")), zc[:len(zc)/2], zstdBytes(good("b.example")), zstdBytes(good("d.example"))),
			want{3, 3, map[Class]int64{ClassContainer: 1}, ErrZstd}, urlsAre("a.example", "b.example", "d.example")},
		{"zstd_checksum_mismatch_frame_dropped", "x.warc.zst", cat(zstdBytes(good("a.example")), badSum, zstdBytes(good("c.example"))),
			want{2, 2, map[Class]int64{ClassContainer: 1}, ErrZstd}, urlsAre("a.example", "c.example")},
		{"zstd_false_skippable_frame", "x.warc.zst", cat(zstdBytes(good("a.example")), []byte{0x50, 0x2a, 0x4d, 0x18, 0xff, 0xff, 0xff, 0x00}, zstdBytes(good("b.example"))),
			want{2, 2, map[Class]int64{ClassContainer: 1}, ErrZstd}, urlsAre("a.example", "b.example")},
		// One member per record shows where a record ends: a Content-Length
		// that runs on into the next member's record is wrong.
		{"content_length_18_digits_per_record_member", "x.warc.gz", gzipMembers(good("a.example"), longCL("999999999999999999"), good("c.example")),
			want{3, 2, map[Class]int64{ClassRecord: 1}, ErrContentLength}, urlsAre("a.example", "c.example")},
		{"content_length_a_little_long_per_record_member", "x.warc.gz", gzipMembers(good("a.example"), longCL("+10"), good("c.example")),
			want{3, 2, map[Class]int64{ClassRecord: 1}, ErrContentLength}, urlsAre("a.example", "c.example")},
		{"record_split_across_members", "x.warc.gz", cat(gzipMember(good("a.example")[:100]), gzipMember(good("a.example")[100:]), gzipMember(good("c.example"))),
			want{2, 2, nil, nil}, urlsAre("a.example", "c.example")},
		{"corrupt_member_resync", "x.warc.gz", cat(gzipMember(good("a.example")), corrupt, gzipMember(good("c.example"))),
			want{2, 2, map[Class]int64{ClassContainer: 1}, ErrGzip}, func(t *testing.T, caps []got) {
				if caps[0].URL != "https://a.example/robots.txt" || caps[1].URL != "https://c.example/robots.txt" {
					t.Errorf("%s %s", caps[0].URL, caps[1].URL)
				}
			}},
		{"truncated_member_at_end", "x.warc.gz", cat(gzipMember(good("a.example")), bigMember[:len(bigMember)-100]),
			want{2, 2, map[Class]int64{ClassContainer: 1, ClassRecord: 1}, ErrGzip}, func(t *testing.T, caps []got) {
				if c := caps[1]; !c.BodyTruncated || len(c.Body) < 100000 || !strings.HasPrefix(string(big), c.Body) {
					t.Errorf("truncated %v body %d bytes", c.BodyTruncated, len(c.Body))
				}
			}},
		{"member_cut_mid_file", "x.warc.gz", cat(gzipMember(good("a.example")), bigMember[:len(bigMember)/2], gzipMember(good("c.example"))),
			want{2, 2, map[Class]int64{ClassContainer: 1}, ErrGzip}, urlsAre("a.example", "c.example")},
		{"false_magic_fextra_swallows_members", "x.warc.gz", cat(gzipMember(good("a.example")), fakeMagic, manyMembers),
			want{201, 201, map[Class]int64{ClassContainer: 1}, ErrGzip}, nil},
		// One byte of a stored (uncompressed) deflate block changed: the
		// deflate data stays valid and only the CRC tells. Nothing of the
		// member is delivered, per record or for a whole-file stream.
		{"crc_mismatch_member_dropped", "x.warc.gz", cat(gzipMember(good("a.example")), flipHost(gzipStored(good("b.example"))), gzipMember(good("c.example"))),
			want{2, 2, map[Class]int64{ClassContainer: 1}, gzip.ErrChecksum}, urlsAre("a.example", "c.example")},
		{"crc_mismatch_whole_stream_invents_nothing", "x.warc.gz", flipHost(gzipStored(cat(good("a.example"), good("b.example"), good("c.example")))),
			want{0, 0, map[Class]int64{ClassContainer: 1}, gzip.ErrChecksum}, nil},
		// Past maxHeld a member is delivered as it inflates: a CRC failure
		// at its end is counted, what it delivered stays delivered.
		{"crc_mismatch_past_max_held_is_counted", "x.warc.gz", cat(gzipMember(good("a.example")), overHeld, gzipMember(good("c.example"))),
			want{3, 3, map[Class]int64{ClassContainer: 1}, gzip.ErrChecksum}, nil},
		{"chunked_raw", "x.warc", robotsResp("a.example", string(chunked(body, 10)), "Transfer-Encoding: chunked"),
			want{1, 1, nil, nil}, bodyIs(robotsBody, false)},
		{"chunked_renamed_by_cc", "x.warc", robotsResp("a.example", robotsBody, "X-Crawler-Transfer-Encoding: chunked", "Content-Length: 70"),
			want{1, 1, nil, nil}, bodyIs(robotsBody, false)},
		{"chunked_header_but_decoded", "x.warc", robotsResp("a.example", robotsBody, "Transfer-Encoding: chunked"),
			want{1, 1, nil, nil}, bodyIs(robotsBody, false)},
		{"chunked_missing_last_chunk", "x.warc", robotsResp("a.example", "5\r\nUser-\r\n", "Transfer-Encoding: chunked"),
			want{1, 1, nil, nil}, bodyIs("User-", true)},
		{"chunked_broken_mid_way", "x.warc", robotsResp("a.example", "5\r\nUser-\r\nzz\r\nagent\r\n0\r\n\r\n", "Transfer-Encoding: chunked"),
			want{1, 1, map[Class]int64{ClassPayload: 1}, ErrChunked}, bodyIs("User-", false)},
		{"gzip_raw", "x.warc", robotsResp("a.example", string(gzipMember(body)), "Content-Encoding: gzip"),
			want{1, 1, nil, nil}, bodyIs(robotsBody, false)},
		{"gzip_renamed_by_cc", "x.warc", robotsResp("a.example", robotsBody, "X-Crawler-Content-Encoding: gzip", "Content-Encoding: gzip"),
			want{1, 1, nil, nil}, bodyIs(robotsBody, false)},
		{"gzip_header_but_decoded", "x.warc", robotsResp("a.example", robotsBody, "Content-Encoding: gzip"),
			want{1, 1, nil, nil}, bodyIs(robotsBody, false)},
		{"gzip_chunked_raw", "x.warc", robotsResp("a.example", string(chunked(gzipMember(body), 16)), "Transfer-Encoding: chunked", "Content-Encoding: gzip"),
			want{1, 1, nil, nil}, bodyIs(robotsBody, false)},
		{"gzip_truncated_payload", "x.warc", robotsResp("a.example", string(gzipMember(body)[:40]), "Content-Encoding: gzip"),
			want{1, 1, nil, nil}, func(t *testing.T, caps []got) {
				if c := caps[0]; !c.BodyTruncated || !strings.HasPrefix(robotsBody, c.Body) {
					t.Errorf("%+v %q", c.Capture, c.Body)
				}
			}},
		{"deflate_zlib_raw", "x.warc", robotsResp("a.example", string(zlibBytes(body)), "Content-Encoding: deflate"),
			want{1, 1, nil, nil}, bodyIs(robotsBody, false)},
		{"deflate_bare_raw", "x.warc", robotsResp("a.example", string(rawDeflate(body)), "Content-Encoding: deflate"),
			want{1, 1, nil, nil}, bodyIs(robotsBody, false)},
		{"br_raw", "x.warc", robotsResp("a.example", string(brotliBytes(body)), "Content-Encoding: br"),
			want{1, 1, nil, nil}, bodyIs(robotsBody, false)},
		{"br_header_but_decoded", "x.warc", robotsResp("a.example", robotsBody, "Content-Encoding: br"),
			want{1, 1, nil, nil}, bodyIs(robotsBody, false)},
		{"cr_cr_lf", "x.warc", warcRecord("response", "https://a.example/robots.txt", []byte("HTTP/1.1 404 Not Found\r\r\nContent-Type: text/html\r\r\n\r\r\nnope")),
			want{1, 1, nil, nil}, func(t *testing.T, caps []got) {
				if c := caps[0]; c.Status != 404 || c.Reason != "Not Found" || c.ContentType != "text/html" || c.Body != "nope" {
					t.Errorf("%+v %q", c.Capture, c.Body)
				}
			}},
		{"blank_line_before_status_line", "x.warc", warcRecord("response", "https://a.example/robots.txt", []byte("\r\nHTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nUser-agent: *\n")),
			want{1, 1, nil, nil}, func(t *testing.T, caps []got) {
				if c := caps[0]; c.Status != 200 || c.ContentType != "text/plain" || c.Body != "User-agent: *\n" {
					t.Errorf("%+v %q", c.Capture, c.Body)
				}
			}},
		{"missing_reason_phrase", "x.warc", warcRecord("response", "https://a.example/robots.txt", []byte("HTTP/1.1 200\r\nContent-Type: text/plain\r\n\r\nUser-agent: *\n")),
			want{1, 1, nil, nil}, func(t *testing.T, caps []got) {
				if c := caps[0]; c.Status != 200 || c.Reason != "" || c.Body != "User-agent: *\n" {
					t.Errorf("%+v %q", c.Capture, c.Body)
				}
			}},
		{"lf_only", "x.warc", []byte("WARC/1.0\nWARC-Type: response\nWARC-Target-URI: https://a.example/robots.txt\nContent-Length: " + strconv.Itoa(len(lfBlock)) + "\n\n" + lfBlock + "\n\n"),
			want{1, 1, nil, nil}, func(t *testing.T, caps []got) {
				if c := caps[0]; c.Status != 301 || c.Location != "https://www.a.example/robots.txt" {
					t.Errorf("%+v %q", c.Capture, c.Body)
				}
			}},
		{"http_header_runs_to_block_end", "x.warc", warcRecord("response", "https://a.example/robots.txt", []byte("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n")),
			want{1, 1, map[Class]int64{ClassHTTP: 1}, ErrHTTPHeaderEnd}, func(t *testing.T, caps []got) {
				if c := caps[0]; c.Status != 404 || c.BodyLen != 0 {
					t.Errorf("%+v", c.Capture)
				}
			}},
		{"http_status_garbage", "x.warc", cat(warcRecord("response", "https://a.example/robots.txt", []byte("HTTP/1.1 abc\r\n\r\n")), good("b.example")),
			want{2, 1, map[Class]int64{ClassHTTP: 1}, ErrStatusLine}, nil},
		{"bad_content_length", "x.warc", cat([]byte("WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 12x\r\n\r\nfoo\r\n\r\n"), good("b.example")),
			want{2, 1, map[Class]int64{ClassRecord: 1}, ErrContentLength}, nil},
		{"warc_0_17_angle_uri", "x.warc", []byte("WARC/0.17\r\nWARC-Type: response\r\nWARC-Target-URI: <https://a.example/robots.txt>\r\nContent-Length: 19\r\n\r\nHTTP/1.0 200 OK\r\n\r\n\r\n\r\n"),
			want{1, 1, nil, nil}, func(t *testing.T, caps []got) {
				if c := caps[0]; c.URL != "https://a.example/robots.txt" || !c.RobotsPath {
					t.Errorf("%+v", c.Capture)
				}
			}},
		{"warc_truncated_header_field", "x.warc", robotsResp("a.example", robotsBody[:10], "Content-Length: 500"),
			want{1, 1, nil, nil}, bodyLenIs(robotsBody[:10], 500)}, // BodyLen: the true size, its Content-Length
		{"short_body_is_truncation", "x.warc", robotsResp("a.example", "", "Content-Length: 120"),
			want{1, 1, nil, nil}, bodyLenIs("", 120)},
		{"not_modified_content_length_is_not_truncation", "x.warc", warcRecord("response", "https://a.example/robots.txt", httpResp("HTTP/1.1 304 Not Modified", nil, "Content-Length: 120")),
			want{1, 1, nil, nil}, bodyIs("", false)},
		{"not_robots_path_skipped", "x.warc", cat(warcRecord("response", "https://a.example/", httpResp("HTTP/1.1 200 OK", body)), warcRecord("request", "https://a.example/robots.txt", []byte("GET /robots.txt HTTP/1.1\r\n\r\n")), good("b.example")),
			want{3, 1, nil, nil}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := writeTemp(t, tc.file, tc.data)
			caps, sum, err := collect(t, Config{Workers: 2}, p)
			if err != nil {
				t.Fatal(err)
			}
			w := tc.want
			if sum.Records != w.records || int64(len(caps)) != w.captures {
				t.Errorf("records %d captures %d, want %d %d; %v", sum.Records, len(caps), w.records, w.captures, sum.Diagnostics)
			}
			for c := Class(1); c < numClasses; c++ {
				if sum.Errors[c] != w.errs[c] {
					t.Errorf("%s errors %d, want %d: %v", c, sum.Errors[c], w.errs[c], sum.Diagnostics)
				}
			}
			if w.first != nil && (len(sum.Diagnostics) == 0 || !errors.Is(sum.Diagnostics[0], w.first)) {
				t.Errorf("first diagnostic %v, want %v", sum.Diagnostics, w.first)
			}
			for _, d := range sum.Diagnostics {
				if len(d.Excerpt) > maxExcerpt {
					t.Errorf("excerpt of %d bytes", len(d.Excerpt))
				}
			}
			if tc.check != nil && len(caps) > 0 {
				tc.check(t, caps)
			}
		})
	}
}

// longCL is a b.example record whose Content-Length is cl, or the true
// length plus N for "+N".
func longCL(cl string) []byte {
	block := httpResp("HTTP/1.1 200 OK", []byte(robotsBody))
	if n, ok := strings.CutPrefix(cl, "+"); ok {
		k, _ := strconv.Atoi(n)
		cl = strconv.Itoa(len(block) + k)
	}
	return []byte("WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://b.example/robots.txt\r\nContent-Length: " + cl + "\r\n\r\n" + string(block) + "\r\n\r\n")
}

// gzipStored is one gzip member of stored deflate blocks: a changed byte
// of p keeps the deflate data valid.
func gzipStored(p []byte) []byte {
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.NoCompression)
	w.Write(p)
	w.Close()
	return b.Bytes()
}

// flipHost changes the first ".example" of a stored member to ".exampme":
// an invented host if the member were believed.
func flipHost(member []byte) []byte {
	m := bytes.Clone(member)
	i := bytes.Index(m, []byte(".example"))
	m[i+6] = 'm'
	return m
}

// urlsAre says which hosts' captures survive, in order.
func urlsAre(hosts ...string) func(t *testing.T, caps []got) {
	return func(t *testing.T, caps []got) {
		t.Helper()
		var got, want []string
		for _, c := range caps {
			got = append(got, c.URL)
		}
		for _, h := range hosts {
			want = append(want, "https://"+h+"/robots.txt")
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("captures %v, want %v", got, want)
		}
	}
}

// bodyLenIs: a truncated body whose true size is n.
func bodyLenIs(body string, n int64) func(t *testing.T, caps []got) {
	return func(t *testing.T, caps []got) {
		t.Helper()
		if c := caps[0]; c.Body != body || c.BodyLen != n || !c.BodyTruncated {
			t.Errorf("body %q len %d truncated %v, want %q %d true", c.Body, c.BodyLen, c.BodyTruncated, body, n)
		}
	}
}

func bodyIs(body string, truncated bool) func(t *testing.T, caps []got) {
	return func(t *testing.T, caps []got) {
		t.Helper()
		c := caps[0]
		if c.Body != body || c.BodyLen != int64(len(body)) || c.BodyTruncated != truncated {
			t.Errorf("body %q len %d truncated %v, want %q %d %v", c.Body, c.BodyLen, c.BodyTruncated, body, len(body), truncated)
		}
	}
}

// TestZstdDictionary reads the IIPC .warc.zst layout: a skippable frame
// holding the dictionary, then one frame per record compressed with it.
func TestZstdDictionary(t *testing.T) {
	t.Parallel()
	dict := []byte(strings.Repeat("WARC/1.1\r\nWARC-Type: response\r\nContent-Type: application/http; msgtype=response\r\nUser-agent: *\nDisallow: /\n", 8))
	var data []byte
	hdr := make([]byte, 8)
	binary.LittleEndian.PutUint32(hdr, 0x184D2A5D)
	binary.LittleEndian.PutUint32(hdr[4:], uint32(len(dict)))
	data = append(append(data, hdr...), dict...)
	for _, h := range []string{"a.example", "b.example", "c.example"} {
		data = append(data, zstdBytes(robotsResp(h, robotsBody), zstd.WithEncoderDictRaw(0, dict))...)
	}
	caps, sum, err := collect(t, Config{}, writeTemp(t, "d.warc.zst", data))
	if err != nil || sum.HadErrors() || len(caps) != 3 || caps[2].Body != robotsBody {
		t.Fatalf("err %v errors %v captures %d", err, sum.Diagnostics, len(caps))
	}
}
