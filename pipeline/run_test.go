package pipeline

import (
	"bytes"
	stdgzip "compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotstat/robotstat/record"
)

// hugeRecord generates a WARC with one response record whose body is n
// bytes, then a small good record, without holding either in memory.
type hugeRecord struct {
	head, tail []byte
	n, off     int64
}

func newHugeRecord(n int64) *hugeRecord {
	http := "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n"
	head := "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://huge.example/robots.txt\r\nContent-Length: " +
		strconv.FormatInt(n+int64(len(http)), 10) + "\r\n\r\n" + http
	return &hugeRecord{head: []byte(head), tail: cat([]byte("\r\n\r\n"), robotsResp("after.example", robotsBody)), n: n}
}

var fill = bytes.Repeat([]byte("Disallow: /x\n"), 5000)

func (h *hugeRecord) Read(p []byte) (int, error) {
	hl, nl := int64(len(h.head)), int64(len(h.head))+h.n
	switch {
	case h.off < hl:
		n := copy(p, h.head[h.off:])
		h.off += int64(n)
		return n, nil
	case h.off < nl:
		k := min(int64(len(p)), nl-h.off)
		i := (h.off - hl) % 13
		n := copy(p[:k], fill[i:])
		h.off += int64(n)
		return n, nil
	case h.off < nl+int64(len(h.tail)):
		n := copy(p, h.tail[h.off-nl:])
		h.off += int64(n)
		return n, nil
	}
	return 0, io.EOF
}

// TestHugeRecord streams a 2 GB record from standard input: the body is
// cut at BodyLimit, BodyLen is exact, the next record is read, and the heap
// does not grow with the record.
func TestHugeRecord(t *testing.T) {
	size := int64(2 << 30)
	if testing.Short() {
		size = 64 << 20
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var peak atomic.Uint64
	stop := make(chan struct{})
	go func() {
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
		}
	}()
	caps, sum, err := collect(t, Config{Workers: 2, Stdin: newHugeRecord(size)}, "-")
	close(stop)
	runtime.ReadMemStats(&after)
	if err != nil || sum.HadErrors() {
		t.Fatal(err, sum.Diagnostics)
	}
	if len(caps) != 2 || caps[0].BodyLen != size || len(caps[0].Body) != DefaultBodyLimit || caps[0].BodyTruncated || caps[1].URL != "https://after.example/robots.txt" {
		t.Fatalf("captures %d, first BodyLen %d len(Body) %d", len(caps), caps[0].BodyLen, len(caps[0].Body))
	}
	if grow := int64(peak.Load()) - int64(before.HeapInuse); grow > 64<<20 {
		t.Errorf("heap grew by %d MB reading a %d MB record", grow>>20, size>>20)
	}
	if sum.Bytes < size {
		t.Errorf("bytes read %d < %d", sum.Bytes, size)
	}
}

// TestWorkers checks that worker ids are in range and that one worker's
// calls never overlap, with several inputs decoded at once.
func TestWorkers(t *testing.T) {
	t.Parallel()
	needCorpus(t)
	const workers = 3
	var busy [workers]atomic.Int32
	var calls atomic.Int64
	files, _ := filepath.Glob(corpus + "warc/real/*")
	sum, err := Run(context.Background(), Config{Workers: workers, Responses: ResponsesAll}, files, func(w int, c *record.Capture) error {
		if w < 0 || w >= workers {
			return errors.New("worker id out of range")
		}
		if busy[w].Add(1) != 1 {
			return errors.New("overlapping calls on one worker")
		}
		calls.Add(1)
		time.Sleep(10 * time.Microsecond)
		busy[w].Add(-1)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Files != len(files) || sum.Captures != calls.Load() || sum.Captures != 299+19+19+16+1+1 {
		t.Errorf("files %d captures %d calls %d", sum.Files, sum.Captures, calls.Load())
	}
}

func TestConsumerErrorStopsRun(t *testing.T) {
	t.Parallel()
	needCorpus(t)
	boom := errors.New("disk full")
	var n atomic.Int64
	_, err := Run(context.Background(), Config{Workers: 2, Responses: ResponsesAll}, []string{corpus + "warc/real/heritrix-2008-blackbook.warc.gz"}, func(w int, c *record.Capture) error {
		if n.Add(1) == 10 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err %v, want %v", err, boom)
	}
}

func TestCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	var n atomic.Int64
	done := make(chan error)
	go func() {
		_, err := Run(ctx, Config{Workers: 2, Stdin: newHugeRecord(1 << 40)}, []string{"-"}, func(w int, c *record.Capture) error { n.Add(1); return nil })
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not stop after cancel")
	}
}

func TestStrict(t *testing.T) {
	t.Parallel()
	needCorpus(t)
	f := corpus + "warc/broken/gowarc-corrupted-trailing-bytes.warc.gz"
	_, sum, err := collect(t, Config{Strict: true}, f)
	var re *ReadError
	if !errors.As(err, &re) || !errors.Is(err, ErrGarbage) || re.Offset != 2362 || re.Class != ClassContainer {
		t.Fatalf("strict: err %v", err)
	}
	if sum.ErrorCount() != 1 {
		t.Errorf("errors %d", sum.ErrorCount())
	}
	_, sum, err = collect(t, Config{}, f)
	if err != nil || !sum.HadErrors() || sum.FilesWithErrors != 1 {
		t.Fatalf("lenient: err %v, summary %+v", err, sum)
	}
}

func TestMissingInputIsEnvironmentError(t *testing.T) {
	t.Parallel()
	_, err := Run(context.Background(), Config{}, []string{filepath.Join(t.TempDir(), "nope.warc.gz")}, func(int, *record.Capture) error { return nil })
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err %v", err)
	}
	_, err = Run(context.Background(), Config{}, []string{"-"}, func(int, *record.Capture) error { return nil })
	if !errors.Is(err, ErrNoStdin) {
		t.Fatalf("err %v", err)
	}
}

// TestDumps reads the secondary sources: JSON Lines (plain and gzip), CSV,
// tar.gz, a folder of files named by host, and a manifest listing them.
func TestDumps(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	jsonl := `{"url":"https://a.example/robots.txt","status":200,"body":"User-agent: *\nDisallow: /a\n","time":"2024-05-18T10:11:12Z"}
{"url":"https://b.example/robots.txt","status":"404","body":null}
not json
{"u":"https://c.example/robots.txt","code":503,"text":"x"}

{"url":"https://d.example/","status":301,"body":"","time":1716027072}
`
	write("d/rows.jsonl", []byte(jsonl))
	write("d/rows.jsonl.gz", gzipMember([]byte(jsonl)))
	write("d/rows.csv", []byte("url,status,body,time\nhttps://e.example/robots.txt,200,\"User-agent: *\nDisallow: /e\n\",20240518101112\nhttps://f.example/robots.txt,404,,\n"))
	write("hosts/g.example-robots.txt", []byte("User-agent: *\nDisallow: /g\n"))
	write("hosts/h.example.txt", []byte("User-agent: h\n"))
	write("hosts/i.example", []byte(""))
	var tb bytes.Buffer
	tarFile(&tb, map[string]string{"j.example.txt": "User-agent: j\n", "k.example": "User-agent: k\n"})
	write("d/sites.tar.gz", gzipMember(tb.Bytes()))
	write("list.paths", []byte("# comment\nd/rows.csv\n\nd/sites.tar.gz\n"))

	t.Run("jsonl", func(t *testing.T) {
		caps, sum, err := collect(t, Config{}, filepath.Join(dir, "d/rows.jsonl"), filepath.Join(dir, "d/rows.jsonl.gz"))
		if err != nil {
			t.Fatal(err)
		}
		if len(caps) != 6 || sum.Errors[ClassRow] != 4 || sum.Records != 10 {
			t.Fatalf("captures %d row errors %d records %d: %v", len(caps), sum.Errors[ClassRow], sum.Records, sum.Diagnostics)
		}
		a := find(caps, "https://a.example/robots.txt")
		if a.Status != 200 || a.Body != "User-agent: *\nDisallow: /a\n" || !a.RobotsPath || a.FetchTime.IsZero() {
			t.Errorf("%+v", a)
		}
		if b := find(caps, "https://b.example/robots.txt"); b.Status != 404 || b.Body != "" {
			t.Errorf("%+v", b)
		}
		if d := find(caps, "https://d.example/"); d.RobotsPath || d.FetchTime.Unix() != 1716027072 {
			t.Errorf("%+v", d)
		}
	})
	t.Run("jsonl_custom_fields", func(t *testing.T) {
		caps, _, err := collect(t, Config{Fields: Fields{URL: "u", Status: "code", Body: "text"}}, filepath.Join(dir, "d/rows.jsonl"))
		if err != nil || find(caps, "https://c.example/robots.txt") == nil || find(caps, "https://c.example/robots.txt").Status != 503 {
			t.Fatalf("%v %+v", err, caps)
		}
	})
	t.Run("folder_and_manifest", func(t *testing.T) {
		caps, sum, err := collect(t, Config{}, filepath.Join(dir, "hosts"), filepath.Join(dir, "list.paths"))
		if err != nil || sum.HadErrors() {
			t.Fatal(err, sum.Diagnostics)
		}
		var urls []string
		for _, c := range caps {
			urls = append(urls, c.URL+"="+strconv.Quote(c.Body))
		}
		want := []string{
			`https://e.example/robots.txt="User-agent: *\nDisallow: /e\n"`,
			`https://f.example/robots.txt=""`,
			`https://j.example/robots.txt="User-agent: j\n"`,
			`https://k.example/robots.txt="User-agent: k\n"`,
			`https://g.example/robots.txt="User-agent: *\nDisallow: /g\n"`,
			`https://h.example/robots.txt="User-agent: h\n"`,
			`https://i.example/robots.txt=""`,
		}
		if strings.Join(sortedCopy(urls), "\n") != strings.Join(sortedCopy(want), "\n") || sum.Files != 5 {
			t.Fatalf("files %d captures:\n%s", sum.Files, strings.Join(urls, "\n"))
		}
		if e := find(caps, "https://e.example/robots.txt"); e.Status != 200 || e.FetchTime.Year() != 2024 {
			t.Errorf("%+v", e)
		}
		// Capture.Path is relative to what was named: the folder, the
		// manifest's line.
		for url, want := range map[string]string{
			"https://g.example/robots.txt": "g.example-robots.txt",
			"https://e.example/robots.txt": "d/rows.csv",
			"https://j.example/robots.txt": "d/sites.tar.gz",
		} {
			if c := find(caps, url); c == nil || c.Path != want {
				t.Errorf("%s: path %q, want %q", url, c.Path, want)
			}
		}
	})
}

// TestJobTrim: a job gives back record buffers larger than keepBlock, so
// the buffers in flight do not grow towards RecordLimit per slot as a run
// meets more large records, and keeps the small ones for reuse.
func TestJobTrim(t *testing.T) {
	t.Parallel()
	j := &job{}
	small, big := make([]byte, 100, 4<<10), make([]byte, 100, keepBlock+1)
	j.slot().block = small
	j.slot().block = big
	j.trim()
	if cap(j.recs[0].block) != cap(small) {
		t.Errorf("small buffer dropped")
	}
	if j.recs[1].block != nil {
		t.Errorf("buffer of %d bytes kept, want dropped above %d", cap(big), keepBlock)
	}
}

// TestStrictDump: a garbage gap between gzip members inside a compressed dump ends a
// --strict run like one inside a WARC does (the stream's container report
// used to be counted and its Strict error dropped), and a lenient run reads
// past it.
func TestStrictDump(t *testing.T) {
	t.Parallel()
	line := func(host string) []byte {
		return []byte(`{"url":"https://` + host + `/robots.txt","status":200,"body":"User-agent: *\nDisallow: /\n"}` + "\n")
	}
	// Garbage between two members: counted as a container error, skipped
	// to the next gzip magic, no partial row in between.
	data := append(append(gzipMember(line("a.example")), "not gzip at all"...), gzipMember(line("c.example"))...)
	f := filepath.Join(t.TempDir(), "dump.jsonl.gz")
	if err := os.WriteFile(f, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var re *ReadError
	_, _, err := collect(t, Config{Strict: true}, f)
	if !errors.As(err, &re) || re.Class != ClassContainer {
		t.Fatalf("strict: err %v, want a container ReadError", err)
	}
	caps, sum, err := collect(t, Config{}, f)
	if err != nil || !sum.HadErrors() || find(caps, "https://a.example/robots.txt") == nil || find(caps, "https://c.example/robots.txt") == nil {
		t.Fatalf("lenient: err %v, %d captures, summary %+v", err, len(caps), sum)
	}
}

// TestOffsetsLocateRecords: every capture of an input has an Offset of its
// own, so that a record without a WARC-Record-ID still gets a capture id of
// its own. A record that begins a gzip member or zstd frame is located at
// the member; one inside a member shared with others (a whole-file stream,
// any compressed dump) at its offset in the decompressed input, which is
// where the plain file has it.
func TestOffsetsLocateRecords(t *testing.T) {
	t.Parallel()
	var jsonl, warc []byte
	var recs [][]byte
	tarFiles := map[string]string{}
	for i := range 5 {
		h := "h" + strconv.Itoa(i) + ".example"
		jsonl = append(jsonl, `{"url":"https://`+h+`/robots.txt","status":200,"body":"User-agent: *\nDisallow: /\n"}`+"\n"...)
		rec := []byte(strings.Replace(string(robotsResp(h, robotsBody)), "WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000001>\r\n", "", 1))
		recs = append(recs, rec)
		warc = append(warc, rec...)
		tarFiles[h+".txt"] = robotsBody
	}
	var tb bytes.Buffer
	tarFile(&tb, tarFiles)
	memberOffsets := make([]int64, 0, len(recs))
	var off int64
	for _, r := range recs {
		memberOffsets = append(memberOffsets, off)
		off += int64(len(gzipMember(r)))
	}
	tests := []struct {
		name, file string
		data       []byte
		plain      string // the plain input whose offsets the captures have
		offsets    []int64
	}{
		{"jsonl", "d.jsonl", jsonl, "", nil},
		{"jsonl_gzip", "d.jsonl.gz", gzipMember(jsonl), "d.jsonl", nil},
		{"jsonl_zstd", "d.jsonl.zst", zstdBytes(jsonl), "d.jsonl", nil},
		{"jsonl_gzip_member_per_line", "d.jsonl.gz", gzipMembers(bytes.SplitAfter(jsonl, []byte("\n"))...), "d.jsonl", nil},
		{"tar", "d.tar", tb.Bytes(), "", nil},
		{"tar_gzip", "d.tar.gz", gzipMember(tb.Bytes()), "d.tar", nil},
		{"warc", "d.warc", warc, "", nil},
		{"warc_gzip_one_stream", "d.warc.gz", gzipMember(warc), "d.warc", nil},
		{"warc_gzip_member_per_record", "d.warc.gz", gzipMembers(recs...), "", memberOffsets},
	}
	dir := t.TempDir()
	byFile := map[string][]got{}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name, tc.file)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			caps, sum, err := collect(t, Config{Responses: ResponsesAll}, p)
			if err != nil || sum.HadErrors() || len(caps) != 5 {
				t.Fatalf("err %v captures %d errors %v", err, len(caps), sum.Diagnostics)
			}
			byFile[tc.file] = caps
			seen := map[int64]bool{}
			for i, c := range caps {
				if seen[c.Offset] {
					t.Errorf("capture %d (%s): offset %d taken", i, c.URL, c.Offset)
				}
				seen[c.Offset] = true
				if tc.plain != "" && c.Offset != byFile[tc.plain][i].Offset {
					t.Errorf("capture %d (%s) at %d, in %s at %d", i, c.URL, c.Offset, tc.plain, byFile[tc.plain][i].Offset)
				}
				if tc.offsets != nil && c.Offset != tc.offsets[i] {
					t.Errorf("capture %d (%s) at %d, want its member's offset %d", i, c.URL, c.Offset, tc.offsets[i])
				}
			}
		})
	}
}

// TestTruncatedJSONL: a .jsonl.gz cut short keeps every line decoded
// before the cut (as many as the standard library's gzip reader decodes
// from what is left) and counts the cut; a member cut mid-file costs only
// itself.
func TestTruncatedJSONL(t *testing.T) {
	t.Parallel()
	var lines [][]byte
	for i := range 3000 {
		lines = append(lines, []byte(`{"url":"https://h`+strconv.Itoa(i)+`.example/robots.txt","status":200,"body":"User-agent: *\nDisallow: /`+strconv.Itoa(i*7919%10007)+`\n"}`+"\n"))
	}
	whole := gzipMember(bytes.Join(lines, nil))
	cut := whole[:len(whole)/2]
	zr, err := stdgzip.NewReader(bytes.NewReader(cut))
	if err != nil {
		t.Fatal(err)
	}
	prefix, _ := io.ReadAll(zr) // ends with io.ErrUnexpectedEOF
	complete := bytes.Count(prefix, []byte("\n"))
	var members [][]byte
	for i := 0; i < len(lines); i += 100 {
		members = append(members, gzipMember(bytes.Join(lines[i:i+100], nil)))
	}
	members[5] = members[5][:len(members[5])/2]

	t.Run("whole_stream_cut", func(t *testing.T) {
		caps, sum, err := collect(t, Config{}, writeTemp(t, "d.jsonl.gz", cut))
		if err != nil {
			t.Fatal(err)
		}
		if len(caps) != complete || complete < 1000 || sum.Errors[ClassContainer] != 1 || !errors.Is(sum.Diagnostics[0], ErrTruncIn) {
			t.Fatalf("captures %d, want the %d complete lines before the cut; errors %v", len(caps), complete, sum.Diagnostics)
		}
		for i, c := range caps {
			if c.URL != "https://h"+strconv.Itoa(i)+".example/robots.txt" {
				t.Fatalf("capture %d: %s", i, c.URL)
			}
		}
	})
	t.Run("member_cut_mid_file", func(t *testing.T) {
		caps, sum, err := collect(t, Config{}, writeTemp(t, "d.jsonl.gz", cat(members...)))
		if err != nil {
			t.Fatal(err)
		}
		if len(caps) != 2900 || sum.Errors[ClassContainer] != 1 || sum.ErrorCount() != 1 {
			t.Fatalf("captures %d, want 2900; errors %v", len(caps), sum.Diagnostics)
		}
		if find(caps, "https://h499.example/robots.txt") == nil || find(caps, "https://h500.example/robots.txt") != nil ||
			find(caps, "https://h599.example/robots.txt") != nil || find(caps, "https://h600.example/robots.txt") == nil {
			t.Errorf("the cut member's lines are not the ones missing")
		}
	})
}
