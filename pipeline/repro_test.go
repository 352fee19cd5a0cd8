package pipeline

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/robotstat/robotstat/schema"
)

// TestRepro reads the reproductions of the reliability pass kept in
// testdata/repro (see its README.md): each says what a good reader keeps
// (no panic, every good capture, each fault counted once in its class) and
// that every row gets a capture id of its own, built as stats builds it.
func TestRepro(t *testing.T) {
	t.Parallel()
	type want struct {
		records, captures int64
		errs              map[Class]int64
		sentinel          error // the first diagnostic wraps it
	}
	tests := []struct {
		file  string
		want  want
		check func(t *testing.T, caps []got)
	}{
		{"panic.warc", want{2, 1, map[Class]int64{ClassRecord: 1}, ErrContentLength}, noURL},
		{"panic.warc.gz", want{2, 1, map[Class]int64{ClassRecord: 1}, ErrContentLength}, noURL},
		{"stale.warc", want{2, 1, map[Class]int64{ClassRecord: 1}, ErrContentLength}, noURL},
		{"g01_trunc_member_mid_header.warc.gz", want{11, 10, map[Class]int64{ClassContainer: 1}, ErrGzip}, nil},
		{"g06_garbage_with_fake_magic.warc.gz", want{11, 10, map[Class]int64{ClassContainer: 1}, ErrGzip}, nil},
		// The member that fails its CRC is not a capture.
		{"g14_crc_mismatch_member_corrupt_content.warc.gz", want{11, 10, map[Class]int64{ClassContainer: 1}, ErrGzip}, nil},
		{"w06_cl_huge_18digits.warc.gz", want{12, 10, map[Class]int64{ClassRecord: 1}, ErrContentLength}, nil},
		{"z03_trunc_frame_middle.warc.zst", want{11, 10, map[Class]int64{ClassContainer: 1}, ErrZstd}, nil},
		// One capture id per row: a row inside a compressed dump is
		// located by its offset in the decompressed dump, as in the plain
		// one, not by the offset of the gzip member all rows share.
		{"mix.csv", want{10, 10, nil, nil}, nil},
		{"mix.csv.gz", want{10, 10, nil, nil}, sameOffsets("mix.csv")},
		// Frames compressed without the dictionary decode without it.
		{"zstd-baddict-compressed.warc.zst", want{3, 3, map[Class]int64{ClassContainer: 1}, ErrZstd}, nil},
		{"zstd-baddict-magic.warc.zst", want{3, 3, map[Class]int64{ClassContainer: 1}, ErrZstd}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			caps, sum, err := collect(t, Config{Workers: 2, Responses: ResponsesAll}, filepath.Join("testdata", "repro", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			w := tc.want
			if sum.Records != w.records || int64(len(caps)) != w.captures || sum.Captures != w.captures {
				t.Errorf("records %d captures %d, want %d %d; %v", sum.Records, len(caps), w.records, w.captures, sum.Diagnostics)
			}
			for c := Class(1); c < numClasses; c++ {
				if sum.Errors[c] != w.errs[c] {
					t.Errorf("%s errors %d, want %d: %v", c, sum.Errors[c], w.errs[c], sum.Diagnostics)
				}
			}
			if w.sentinel != nil && (len(sum.Diagnostics) == 0 || !errors.Is(sum.Diagnostics[0], w.sentinel)) {
				t.Errorf("first diagnostic %v, want one wrapping %v", sum.Diagnostics, w.sentinel)
			}
			ids := map[string]int64{}
			for _, c := range caps {
				id := schema.CaptureID(c.RecordID, c.Crawl, c.Path, c.Offset)
				if prev, dup := ids[id]; dup {
					t.Errorf("records %d and %d share capture id %s (offset %d)", prev, c.Index, id, c.Offset)
				}
				ids[id] = c.Index
			}
			if tc.check != nil {
				tc.check(t, caps)
			}
		})
	}
}

// sameOffsets: the captures are located as those of the plain file.
func sameOffsets(plain string) func(t *testing.T, caps []got) {
	return func(t *testing.T, caps []got) {
		want, _, err := collect(t, Config{}, filepath.Join("testdata", "repro", plain))
		if err != nil || len(want) != len(caps) {
			t.Fatalf("%s: %v, %d captures", plain, err, len(want))
		}
		for i := range caps {
			if caps[i].Offset != want[i].Offset || caps[i].URL != want[i].URL {
				t.Errorf("row %d: %s at %d, in %s %s at %d", i, caps[i].URL, caps[i].Offset, plain, want[i].URL, want[i].Offset)
			}
		}
	}
}

// noURL: the record after the rejected header has no WARC-Target-URI, and
// must not take one from the header before it.
func noURL(t *testing.T, caps []got) {
	for _, c := range caps {
		if c.URL != "" || c.Status != 200 || c.Body != "User-agent: *\nDisallow: /\n" {
			t.Errorf("capture %d: url %q status %d body %q", c.Index, c.URL, c.Status, c.Body)
		}
	}
}
