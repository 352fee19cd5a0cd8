package reduce

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the fuzz seeds under testdata/fuzz/FuzzSpillRecord")

// recordKinds makes an empty record of each kind; FuzzSpillRecord's kind
// byte indexes it (mod its length), so new kinds go at the end.
var recordKinds = []func() spillRecord{
	func() spillRecord { return new(captureRec) },
	func() spillRecord { return new(targetRec) },
	func() spillRecord { return new(candidateRec) },
	func() spillRecord { return new(nodeRec) },
	func() spillRecord { return new(urlResult) },
	func() spillRecord { return new(hopRequest) },
	func() spillRecord { return new(candRequest) },
	func() spillRecord { return new(candAnswer) },
	func() spillRecord { return new(siteRequest) },
	func() spillRecord { return new(verdictRec) },
	func() spillRecord { return new(historyRec) },
}

func kindOf(r spillRecord) int {
	for i, k := range recordKinds {
		if reflect.TypeOf(k()) == reflect.TypeOf(r) {
			return i
		}
	}
	panic(fmt.Sprintf("%T is not in recordKinds", r))
}

var (
	id1  = [16]byte{0: 0xde, 1: 0xad, 15: 0x01}
	long = "https://long.example/" + strings.Repeat("a", 300) // a length of two bytes
	ans  = result{class: classParsed, hops: 3, ans: &capture{id: id1, url: long, status: 200, statusClass: "2xx", fetch: 1_736_899_200_000}}
)

// recordCases are one or more records of each kind, at the edges of their
// fields: empty strings, long ones, negative numbers, no fetch time, every
// class and reason.
var recordCases = []struct {
	name string
	rec  spillRecord
}{
	{"capture_parsed", &captureRec{id: id1, url: "https://a.example/robots.txt", class: classParsed, status: 200, statusClass: "2xx", fetch: 1_736_899_200_000}},
	{"capture_redirect", &captureRec{url: long, class: classRedirect, status: 301, statusClass: "3xx", fetch: noTime, target: long}},
	{"capture_no_status", &captureRec{class: classUnresolved, status: -1 << 31, fetch: -5}},
	{"target", &targetRec{url: "https://b.example/robots.txt"}},
	{"target_empty", &targetRec{}},
	{"candidate", &candidateRec{captureRec: captureRec{id: id1, url: "http://a.example/robots.txt", class: classUnreachable, status: 503,
		statusClass: "5xx", fetch: 7}, host: "a.example", regdom: "a.example", https: false, rank: 12}},
	{"candidate_https_unranked", &candidateRec{captureRec: captureRec{class: classRedirect, target: long}, host: "b.example", https: true, rank: -1}},
	{"node_answer", &nodeRec{url: "https://a.example/x", own: ans, noLocation: true}},
	{"node_only_redirects", &nodeRec{url: "https://a.example/y", own: result{class: classUnresolved}}},
	{"url_result_limit", &urlResult{url: "https://a.example/z", res: resultLimit}},
	{"url_result_not_captured", &urlResult{url: long, res: resultNotCaptured}},
	{"url_result_answer", &urlResult{url: "u", res: result{class: classUnavailable, hops: maxHops, ans: &capture{status: 404, statusClass: "4xx", fetch: noTime}}}},
	{"hop_request", &hopRequest{target: "https://c.example/robots.txt", from: 1023, url: "https://a.example/x"}},
	{"cand_request", &candRequest{target: long, from: 7, index: 1 << 40}},
	{"cand_answer", &candAnswer{index: 3, res: resultNoLocation}},
	{"cand_answer_parsed", &candAnswer{index: 0, res: ans}},
	{"site_request_answered", &siteRequest{host: "a.example", regdom: "a.example", class: classParsed, rank: 1, hasAns: true, id: id1}},
	{"site_request_unresolved", &siteRequest{host: "192.0.2.1", class: classUnresolved}},
	{"verdict", &verdictRec{id: id1, cat: 2, tuples: []byte(`[{"m":"named"}]`), botTuple: bytes.Repeat([]byte{1, 0}, 91)}},
	{"verdict_empty", &verdictRec{}},
	{"history", &historyRec{host: "a.example", regdom: "a.example", crawl: 3, class: classParsed, rank: 9, cat: 1,
		runs: appendRuns(nil, []byte{0x00, 0x00, 0x12, 0x12, 0x12, 0x23})}},
	{"history_no_bots", &historyRec{host: "b.example", class: classUnreachable}},
}

// TestSpillRecordRoundTrip: each record decodes to itself; every strict
// prefix of its bytes is errShort or errBadRecord, and so is a byte more
// (never a panic, never a record).
func TestSpillRecordRoundTrip(t *testing.T) {
	seen := map[int]bool{}
	for _, tt := range recordCases {
		t.Run(tt.name, func(t *testing.T) {
			kind := kindOf(tt.rec)
			seen[kind] = true
			b := tt.rec.appendTo(nil)
			got := recordKinds[kind]()
			if err := got.decode(b); err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !reflect.DeepEqual(got, tt.rec) {
				t.Fatalf("decoded\n %+v\nwant %+v", got, tt.rec)
			}
			if again := got.appendTo([]byte("prefix")); !bytes.Equal(again[6:], b) {
				t.Errorf("appendTo after a prefix %x, want %x", again[6:], b)
			}
			for n := range len(b) {
				if err := recordKinds[kind]().decode(b[:n]); !errors.Is(err, errShort) && !errors.Is(err, errBadRecord) {
					t.Errorf("the first %d of %d bytes: %v, want a decoding error", n, len(b), err)
				}
			}
			if err := recordKinds[kind]().decode(append(b, 0)); !errors.Is(err, errBadRecord) {
				t.Errorf("a byte left over: %v, want errBadRecord", err)
			}
		})
	}
	for i := range recordKinds {
		if !seen[i] {
			t.Errorf("no case of %T", recordKinds[i]())
		}
	}
}

// TestSpillRecordRejects: values out of range are errors, not records that
// would index past a table later.
func TestSpillRecordRejects(t *testing.T) {
	tests := []struct {
		name string
		rec  spillRecord
		b    []byte
	}{
		{"capture_class", new(captureRec), enc(nil).id(id1).str("u").byte(classRedirect + 1).int(200).str("2xx").int(0).str("")},
		{"capture_status_past_int32", new(captureRec), enc(nil).id(id1).str("u").byte(classParsed).int(1 << 31).str("2xx").int(0).str("")},
		{"site_request_redirect_class", new(siteRequest), enc(nil).str("h").str("d").byte(classRedirect).int(0).bool(false)},
		{"site_request_bool", new(siteRequest), enc(nil).str("h").str("d").byte(classParsed).int(0).byte(2)},
		{"result_reason", new(urlResult), enc(nil).str("u").byte(classUnresolved).byte(0).byte(reasonNoLocation + 1).bool(false)},
		{"result_hops", new(urlResult), enc(nil).str("u").byte(classParsed).byte(maxHops + 1).byte(0).bool(false)},
		{"result_redirect_class", new(urlResult), enc(nil).str("u").byte(classRedirect).byte(0).byte(0).bool(false)},
		{"index_past_int", new(candAnswer), enc(nil).uint(1 << 63).result(resultLimit)},
		{"length_past_end", new(targetRec), enc(nil).uint(5).byte('a')},
		{"history_code", new(historyRec), enc(nil).str("h").str("").uint(0).byte(0).int(0).uint(0).raw([]byte{0x40, 1})},
		{"history_run_zero", new(historyRec), enc(nil).str("h").str("").uint(0).byte(0).int(0).uint(0).raw([]byte{0x00, 0})},
		{"history_run_cut", new(historyRec), enc(nil).str("h").str("").uint(0).byte(0).int(0).uint(0).raw([]byte{0x00})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.rec.decode(tt.b); !errors.Is(err, errShort) && !errors.Is(err, errBadRecord) {
				t.Errorf("decode %x: %v (%+v), want a decoding error", tt.b, err, tt.rec)
			}
		})
	}
}

// TestRuns: eachRun gives back the codes appendRuns coded, the first n of
// them when n is fewer, and no more than there are.
func TestRuns(t *testing.T) {
	codes := []byte{0x00, 0x00, 0x12, 0x12, 0x12, 0x23, 0x00, 0x33}
	runs := appendRuns(nil, codes)
	if !validRuns(runs) || len(runs) != 2*5 {
		t.Fatalf("runs %x (valid %v), want 5 pairs", runs, validRuns(runs))
	}
	for n := range len(codes) + 3 {
		var got []byte
		eachRun(runs, n, func(c byte, from, to int) {
			if from != len(got) || to <= from {
				t.Errorf("n=%d: run [%d, %d) after %d codes", n, from, to, len(got))
			}
			for range to - from {
				got = append(got, c)
			}
		})
		if want := codes[:min(n, len(codes))]; !bytes.Equal(got, want) {
			t.Errorf("n=%d: codes %x, want %x", n, got, want)
		}
	}
	eachRun(nil, 5, func(byte, int, int) { t.Errorf("a run of no runs") })
}

// TestSpillRoundTrip puts every case, and records long enough to need a
// wider length and to fill a partition's buffer, through a spill's files
// and reads them back, partition by partition, in order.
func TestSpillRoundTrip(t *testing.T) {
	s, err := newSpill(t.TempDir(), "t", 3)
	if err != nil {
		t.Fatal(err)
	}
	defer s.remove()
	type put struct {
		p   int
		rec spillRecord
	}
	var puts []put
	for i, tt := range recordCases {
		if _, ok := tt.rec.(*targetRec); ok {
			puts = append(puts, put{i % 3, tt.rec})
		}
	}
	for i, n := range []int{0, 1, 126, 127, 128, 16383, 16384, 3 * spillBuffer} {
		puts = append(puts, put{i % 3, &targetRec{url: strings.Repeat(string(rune('a'+i)), n)}})
	}
	for range 3 { // a second and third round fill buffers and flush them
		for _, p := range puts {
			if err := s.put(p.p, p.rec); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.put(3, &targetRec{}); err == nil {
		t.Errorf("put into partition 3 of 3: no error")
	}
	for p := range 3 {
		var want []string
		for range 3 {
			for _, q := range puts {
				if q.p == p {
					want = append(want, q.rec.(*targetRec).url)
				}
			}
		}
		var got []string
		var r targetRec
		if err := s.read(p, &r, func() error {
			got = append(got, r.url)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("partition %d: %d records back, want %d (or others)", p, len(got), len(want))
		}
	}
	// A record of another kind in the file is an error naming the file.
	if err := s.put(0, &hopRequest{target: "x", from: 1, url: "y"}); err != nil {
		t.Fatal(err)
	}
	var r targetRec
	err = s.read(0, &r, func() error { return nil })
	if !errors.Is(err, errBadRecord) || !strings.Contains(err.Error(), s.path(0)) {
		t.Errorf("reading a hopRequest as a targetRec: %v", err)
	}
}

// FuzzSpillRecord decodes arbitrary bytes as each kind of spill record:
// never a panic, and what decodes encodes to bytes that decode to the
// same record, and encode to themselves.
func FuzzSpillRecord(f *testing.F) {
	for _, tt := range recordCases {
		f.Add(byte(kindOf(tt.rec)), tt.rec.appendTo(nil))
	}
	f.Fuzz(func(t *testing.T, kind byte, data []byte) {
		mk := recordKinds[int(kind)%len(recordKinds)]
		r := mk()
		if r.decode(data) != nil {
			return
		}
		b := r.appendTo(nil)
		again := mk()
		if err := again.decode(b); err != nil {
			t.Fatalf("%T %+v encodes to %x, which does not decode: %v", r, r, b, err)
		}
		if !reflect.DeepEqual(again, r) {
			t.Fatalf("%T decodes from %x as %+v, encodes and decodes as %+v", r, data, r, again)
		}
		if b2 := again.appendTo(nil); !bytes.Equal(b2, b) {
			t.Fatalf("%T encodes as %x, then as %x", r, b, b2)
		}
	})
}

// TestFuzzSeeds: the committed seeds of FuzzSpillRecord are the round-trip
// cases in their current format (go test ./reduce -run TestFuzzSeeds
// -update rewrites them).
func TestFuzzSeeds(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzSpillRecord")
	if *update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range recordCases {
		want := fmt.Sprintf("go test fuzz v1\nbyte(%q)\n[]byte(%q)\n", byte(kindOf(tt.rec)), tt.rec.appendTo(nil))
		path := filepath.Join(dir, tt.name)
		if *update {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if got, err := os.ReadFile(path); err != nil || string(got) != want {
			t.Errorf("%s is stale or missing (%v): go test ./reduce -run TestFuzzSeeds -update", path, err)
		}
	}
}
