package pipeline

import (
	"errors"
	"maps"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpusReal reads every real WARC of the shared corpus. The numbers
// were checked against an independent reader (Python's zlib and a
// hand-written record splitter), not against this package.
func TestCorpusReal(t *testing.T) {
	t.Parallel()
	needCorpus(t)
	type check func(t *testing.T, caps []got, sum Summary)
	tests := []struct {
		file      string
		responses Responses
		records   int64
		captures  int
		status    map[int]int
		check     check
	}{
		{"heritrix-2008-blackbook.warc.gz", ResponsesRobots, 822, 38, map[int]int{200: 33, 404: 5}, func(t *testing.T, caps []got, sum Summary) {
			c := find(caps, "http://www.archive.org/robots.txt")
			if c == nil || c.Status != 200 || !c.RobotsPath || c.Crawl != "archive.org-shallow" || !strings.Contains(c.Body, "User-agent") {
				t.Errorf("www.archive.org/robots.txt: %+v", c)
			}
			if c.FetchTime.IsZero() || c.FetchTime.Year() != 2008 {
				t.Errorf("fetch time %v, want 2008", c.FetchTime)
			}
			for _, c := range caps {
				if !c.RobotsPath {
					t.Errorf("%s: not a robots path", c.URL)
				}
			}
		}},
		{"heritrix-2008-blackbook.warc.gz", ResponsesAll, 822, 299, nil, func(t *testing.T, caps []got, sum Summary) {
			robots := 0
			for _, c := range caps {
				if c.RobotsPath {
					robots++
				}
			}
			if robots != 38 {
				t.Errorf("robots-path captures among all: %d, want 38", robots)
			}
			if c := find(caps, "dns:www.archive.org"); c == nil || c.Status != 0 || c.Body == "" || c.ContentType != "text/dns" {
				t.Errorf("dns record as a status-0 capture: %+v", c)
			}
		}},
		{"wget-iah-urls.warc", ResponsesRobots, 36, 2, map[int]int{200: 1, 302: 1}, func(t *testing.T, caps []got, sum Summary) {
			c := find(caps, "http://www.archive.org/robots.txt")
			if c == nil || c.Status != 302 || c.Location != "http://archive.org/robots.txt" {
				t.Errorf("redirect: %+v", c)
			}
			if c.Offset != 1064 || c.Index != 2 {
				t.Errorf("plain WARC offset/index %d/%d, want 1064/2", c.Offset, c.Index)
			}
		}},
		{"wget-iah-urls.warc.gz", ResponsesRobots, 36, 2, map[int]int{200: 1, 302: 1}, func(t *testing.T, caps []got, sum Summary) {
			c := find(caps, "http://www.archive.org/robots.txt")
			if c == nil || c.Offset != 817 || c.Index != 2 {
				t.Errorf("gzip member offset/index: %+v, want 817/2", c)
			}
		}},
		{"wget-iah-urls.warc.gz", ResponsesAll, 36, 19, map[int]int{0: 3, 200: 7, 301: 2, 302: 7}, nil},
		{"cc-main-2020-34-first50.warc.gz", ResponsesAll, 50, 16, map[int]int{200: 16}, func(t *testing.T, caps []got, sum Summary) {
			c := find(caps, "http://003338.cn/l41/481397.html")
			if c == nil {
				t.Fatal("missing http://003338.cn/l41/481397.html")
			}
			// X-Crawler-Content-Encoding: the payload is stored decoded.
			if c.Crawl != "CC-MAIN-2020-34" || c.BodyLen != 36331 || c.BodyTruncated || !strings.HasPrefix(c.Body, "<html>") ||
				c.IP != "154.93.86.172" || c.PayloadDigest != "sha1:CUJAG44UJDP64LTXHBIFKPXD54UHBP4S" || c.IdentifiedType != "text/html" ||
				c.RecordID != "<urn:uuid:c4c112a5-3503-4483-abf8-51a0dd86dd53>" || c.ContentType != "text/html" || c.Offset != 940 || c.Index != 2 {
				t.Errorf("CC capture: %+v body %.20q", c.Capture, c.Body)
			}
		}},
		{"cc-main-2020-34-first50.warc.gz", ResponsesRobots, 50, 0, nil, nil},
		{"cc-main-2024-22-whirlwind.warc.gz", ResponsesAll, 4, 1, map[int]int{200: 1}, func(t *testing.T, caps []got, sum Summary) {
			if c := caps[0]; c.URL != "https://an.wikipedia.org/wiki/Escopete" || c.Crawl != "CC-MAIN-2024-22" {
				t.Errorf("%+v", c.Capture)
			}
		}},
		{"cc-2019-single.warc.gz", ResponsesAll, 1, 1, map[int]int{200: 1}, func(t *testing.T, caps []got, sum Summary) {
			if caps[0].URL != "http://commoncrawl.org/" {
				t.Errorf("%+v", caps[0].Capture)
			}
		}},
		{"gzip-extra-sl.warc.gz", ResponsesAll, 1, 0, nil, nil},
	}
	seen := map[string]bool{}
	for _, tc := range tests {
		seen[tc.file] = true
		t.Run(tc.file+"/"+tc.responses.String(), func(t *testing.T) {
			caps, sum, err := collect(t, Config{Responses: tc.responses, Workers: 2}, corpus+"warc/real/"+tc.file)
			if err != nil {
				t.Fatal(err)
			}
			if sum.HadErrors() {
				t.Errorf("errors in a good file: %v", sum.Diagnostics)
			}
			if sum.Records != tc.records || len(caps) != tc.captures || sum.Captures != int64(tc.captures) || sum.Files != 1 {
				t.Errorf("records %d captures %d (summary %d) files %d, want %d %d 1", sum.Records, len(caps), sum.Captures, sum.Files, tc.records, tc.captures)
			}
			if tc.status != nil && !maps.Equal(statusCounts(caps), tc.status) {
				t.Errorf("status counts %v, want %v", statusCounts(caps), tc.status)
			}
			if tc.check != nil && len(caps) > 0 {
				tc.check(t, caps, sum)
			}
		})
	}
	files, _ := filepath.Glob(corpus + "warc/real/*")
	for _, f := range files {
		if !seen[filepath.Base(f)] {
			t.Errorf("%s is not exercised", f)
		}
	}
}

// TestCorpusBroken reads every real broken WARC: no panic, every error
// located and counted, and everything readable is read.
func TestCorpusBroken(t *testing.T) {
	t.Parallel()
	needCorpus(t)
	type want struct {
		records  int64
		captures int
		errs     map[Class]int64
		sentinel error // every diagnostic wraps it
		offset   int64 // of the first diagnostic
	}
	tests := []struct {
		file  string
		want  want
		check func(t *testing.T, caps []got)
	}{
		{"block-sized-records.warc.gz", want{records: 3}, nil},
		{"clipped-truncated-member.warc.gz", want{1, 1, map[Class]int64{ClassContainer: 1, ClassRecord: 1}, ErrTruncIn, 0}, func(t *testing.T, caps []got) {
			// Nothing already read is lost: the partial record is a capture.
			c := caps[0]
			if c.Status != 200 || !c.BodyTruncated || c.BodyLen == 0 || !strings.Contains(c.URL, "houstonpress.com") {
				t.Errorf("%+v", c.Capture)
			}
		}},
		{"clueweb-warc-0.18-quirk.warc.gz", want{records: 30, captures: 29}, func(t *testing.T, caps []got) {
			for _, c := range caps {
				if c.Status != 200 || c.Crawl != "clueweb09-ja" || strings.HasPrefix(c.Body, "\x1f\x8b") {
					t.Errorf("%s: status %d crawl %q body %.10q", c.URL, c.Status, c.Crawl, c.Body)
				}
			}
		}},
		{"gowarc-corrupted-mid-record.warc.gz", want{12, 12, map[Class]int64{ClassContainer: 1}, ErrGarbage, 1219}, nil},
		{"gowarc-corrupted-trailing-bytes.warc.gz", want{30, 30, map[Class]int64{ClassContainer: 1}, ErrGarbage, 2362}, nil},
		{"gowarc-empty.warc.gz", want{}, nil},
		{"warcio-bad-non-chunked.warc.gz", want{records: 6, captures: 1}, func(t *testing.T, caps []got) {
			// Content-Encoding: gzip and the bytes really are gzip.
			if c := caps[0]; !strings.HasPrefix(c.Body, "<!doctype html>") || c.BodyLen != 1270 {
				t.Errorf("body %.30q len %d", c.Body, c.BodyLen)
			}
		}},
		{"warcio-chunked-payload.warc", want{records: 3, captures: 1}, func(t *testing.T, caps []got) {
			if c := caps[0]; !strings.HasPrefix(c.Body, "<!doctype html>") || strings.Contains(c.Body, "\r\n001c37") || c.BodyTruncated {
				t.Errorf("body %.30q truncated %v", c.Body, c.BodyTruncated)
			}
		}},
		{"warcio-space-in-target-uri.warc.gz", want{records: 2, captures: 1}, func(t *testing.T, caps []got) {
			if c := caps[0]; c.URL != "file:///example with spaces.png" || c.Status != 0 || c.BodyLen != 70 {
				t.Errorf("%+v", c.Capture)
			}
		}},
		{"warcio-trunc.warc", want{4, 1, map[Class]int64{ClassContainer: 1}, ErrGarbage, 2560}, func(t *testing.T, caps []got) {
			if c := caps[0]; c.Status != 200 || !strings.HasPrefix(c.Body, "<!doctype html>") {
				t.Errorf("body %.30q", c.Body)
			}
		}},
		{"warcio-wrong-chunks.warc.gz", want{records: 2, captures: 1}, func(t *testing.T, caps []got) {
			// The WARC Content-Length (1613) stops one byte short of the
			// HTTP Content-Length (1271): the archive holds less than was
			// sent, and BodyLen is what was sent.
			if c := caps[0]; !strings.HasPrefix(c.Body, "<!doctype html>") || len(c.Body) != 1270 || c.BodyLen != 1271 || !c.BodyTruncated {
				t.Errorf("body %.30q len %d truncated %v", c.Body, c.BodyLen, c.BodyTruncated)
			}
		}},
	}
	seen := map[string]bool{}
	for _, tc := range tests {
		seen[tc.file] = true
		t.Run(tc.file, func(t *testing.T) {
			caps, sum, err := collect(t, Config{Responses: ResponsesAll, Workers: 2}, corpus+"warc/broken/"+tc.file)
			if err != nil {
				t.Fatal(err)
			}
			w := tc.want
			if sum.Records != w.records || len(caps) != w.captures {
				t.Errorf("records %d captures %d, want %d %d", sum.Records, len(caps), w.records, w.captures)
			}
			for c := Class(1); c < numClasses; c++ {
				if sum.Errors[c] != w.errs[c] {
					t.Errorf("%s errors %d, want %d: %v", c, sum.Errors[c], w.errs[c], sum.Diagnostics)
				}
			}
			if (sum.FilesWithErrors > 0) != (len(w.errs) > 0) {
				t.Errorf("FilesWithErrors %d", sum.FilesWithErrors)
			}
			for _, d := range sum.Diagnostics {
				if d.Source == "" || !errors.Is(d, w.sentinel) {
					t.Errorf("diagnostic %v does not wrap %v", d, w.sentinel)
				}
			}
			if len(sum.Diagnostics) > 0 && sum.Diagnostics[0].Offset != w.offset {
				t.Errorf("first diagnostic at %d, want %d", sum.Diagnostics[0].Offset, w.offset)
			}
			if tc.check != nil && len(caps) > 0 {
				tc.check(t, caps)
			}
		})
	}
	files, _ := filepath.Glob(corpus + "warc/broken/*")
	for _, f := range files {
		if !seen[filepath.Base(f)] {
			t.Errorf("%s is not exercised", f)
		}
	}
}
