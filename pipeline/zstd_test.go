package pipeline

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// TestZstdFrames reads .warc.zst inputs frame by frame: records located at
// their frame, garbage and broken frames skipped to the next frame.
func TestZstdFrames(t *testing.T) {
	t.Parallel()
	a, b, c := zstdBytes(robotsResp("a.example", robotsBody)), zstdBytes(robotsResp("b.example", robotsBody)), zstdBytes(robotsResp("c.example", robotsBody))
	broken := bytes.Clone(b)
	for i := 12; i < len(broken)-4; i += 5 {
		broken[i] ^= 0xa5
	}
	skippable := []byte{0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 'x', 'y', 'z'}
	rng := rand.New(rand.NewPCG(3, 4))
	noise := make([]byte, 20<<20)
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	recLen := int64(len(robotsResp("a.example", robotsBody)))
	bigRec := robotsResp("big.example", string(noise))
	tests := []struct {
		name     string
		data     []byte
		offsets  []int64
		errs     int64
		sentinel error
		long     bool
	}{
		{"one_frame_per_record", cat(a, b, c), []int64{0, int64(len(a)), int64(len(a) + len(b))}, 0, nil, false},
		{"skippable_frame_between", cat(a, skippable, b), []int64{0, int64(len(a) + len(skippable))}, 0, nil, false},
		{"garbage_between_frames", cat(a, []byte("<html>oops</html>"), b), []int64{0, int64(len(a)) + 17}, 1, ErrGarbage, false},
		{"broken_frame_in_the_middle", cat(a, broken, c), []int64{0, int64(len(a) + len(broken))}, 1, ErrZstd, false},
		// A record inside a frame that holds others has no stored offset
		// of its own: it is located by its decompressed offset.
		{"one_frame_for_everything", zstdBytes(cat(robotsResp("a.example", robotsBody), robotsResp("b.example", robotsBody))), []int64{0, recLen}, 0, nil, false},
		{"frame_too_big_to_hold_streams", cat(a, zstdBytes(bigRec), c), []int64{0, int64(len(a)), recLen + int64(len(bigRec))}, 0, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.long && testing.Short() {
				t.Skip("20 MB frame")
			}
			caps, sum, err := collect(t, Config{}, writeTemp(t, "x.warc.zst", tc.data))
			if err != nil {
				t.Fatal(err)
			}
			if len(caps) != len(tc.offsets) || sum.ErrorCount() != tc.errs {
				t.Fatalf("captures %d errors %v", len(caps), sum.Diagnostics)
			}
			for i, c := range caps {
				if c.Offset != tc.offsets[i] {
					t.Errorf("capture %d (%s) at %d, want %d", i, c.URL, c.Offset, tc.offsets[i])
				}
				if c.BodyLen < int64(len(robotsBody)) || c.BodyTruncated {
					t.Errorf("capture %d: %+v", i, c.Capture)
				}
			}
			if tc.sentinel != nil && !errors.Is(sum.Diagnostics[0], tc.sentinel) {
				t.Errorf("diagnostic %v, want %v", sum.Diagnostics[0], tc.sentinel)
			}
		})
	}
}

// TestZstdBadDictionary: a dictionary frame that cannot be used is one
// counted error, and the input is read without it: frames made without a
// dictionary decode, a frame that needed it is broken on its own.
func TestZstdBadDictionary(t *testing.T) {
	t.Parallel()
	dictFrame := func(content []byte) []byte {
		hdr := make([]byte, 8)
		binary.LittleEndian.PutUint32(hdr, 0x184D2A5D)
		binary.LittleEndian.PutUint32(hdr[4:], uint32(len(content)))
		return append(hdr, content...)
	}
	raw := []byte(strings.Repeat("WARC/1.1\r\nWARC-Type: response\r\nUser-agent: *\nDisallow: /\n", 8))
	brokenFrame := zstdBytes(raw)
	brokenFrame[len(brokenFrame)/2] ^= 0xff
	frames := cat(zstdBytes(robotsResp("a.example", robotsBody)),
		zstdBytes(robotsResp("b.example", robotsBody), zstd.WithEncoderDictRaw(7, raw)),
		zstdBytes(robotsResp("c.example", robotsBody)))
	for _, tc := range []struct {
		name string
		dict []byte
	}{
		{"compressed_dictionary_broken", brokenFrame},
		{"dictionary_magic_bad_content", append([]byte{0x37, 0xa4, 0x30, 0xec}, bytes.Repeat([]byte{1}, 12)...)},
		{"dictionary_frame_cut", dictFrame(raw)[:20]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := cat(dictFrame(tc.dict), frames)
			if tc.name == "dictionary_frame_cut" {
				data = tc.dict
			}
			caps, sum, err := collect(t, Config{Workers: 2}, writeTemp(t, "x.warc.zst", data))
			if err != nil {
				t.Fatal(err)
			}
			want, errs := []string{"https://a.example/robots.txt", "https://c.example/robots.txt"}, int64(2)
			if tc.name == "dictionary_frame_cut" {
				want, errs = nil, 1
			}
			var urls []string
			for _, c := range caps {
				urls = append(urls, c.URL)
			}
			if strings.Join(urls, " ") != strings.Join(want, " ") || sum.Errors[ClassContainer] != errs || sum.ErrorCount() != errs {
				t.Fatalf("captures %v, errors %v", urls, sum.Diagnostics)
			}
			for _, d := range sum.Diagnostics {
				if !errors.Is(d, ErrZstd) {
					t.Errorf("diagnostic %v does not wrap ErrZstd", d)
				}
			}
		})
	}
}

// TestZstdLongWindow: a frame that zstd --long=31 wrote declares a 2 GiB
// window; it is read under the default ZstdWindow (issue 26.4: it was a
// "broken zstd frame"), and under a smaller ZstdWindow it is one container
// error that names its window, the limit and what to do.
func TestZstdLongWindow(t *testing.T) {
	t.Parallel()
	in := filepath.Join("testdata", "long31.warc.zst")
	caps, sum, err := collect(t, Config{}, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(caps) != 10 || sum.ErrorCount() != 0 {
		t.Fatalf("%d captures, errors %v; want 10, none", len(caps), sum.Diagnostics)
	}
	caps, sum, err = collect(t, Config{ZstdWindow: 64 << 20}, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(caps) != 0 || sum.Errors[ClassContainer] != 1 || len(sum.Diagnostics) != 1 {
		t.Fatalf("%d captures, errors %v; want 0, one container error", len(caps), sum.Diagnostics)
	}
	msg := sum.Diagnostics[0].Error()
	for _, want := range []string{"window is 2 GiB", "over the 64 MiB", "--zstd-window", "zstd --long"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q does not say %q", msg, want)
		}
	}
	if err := (Config{ZstdWindow: 512}).Validate(); !errors.Is(err, ErrConfig) {
		t.Errorf("a 512-byte window: %v, want ErrConfig", err)
	}
}
