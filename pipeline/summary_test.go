package pipeline

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robotstat/robotstat/record"
)

func TestSummaryLine(t *testing.T) {
	t.Parallel()
	s := Summary{Files: 3, Records: 240001, Captures: 120000, Bytes: 400_000_000, Elapsed: 4200 * time.Millisecond}
	s.Errors[ClassContainer] = 1
	s.Errors[ClassRecord] = 1
	want := "3 files, 120000 captures (240001 records), 2 errors (container 1, record 1), 4.2 s, 95.2 MB/s"
	if got := s.Line(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if !s.HadErrors() || s.ErrorCount() != 2 {
		t.Error("error accounting")
	}
	if (&Summary{}).Line() != "0 files, 0 captures (0 records), 0 errors, 0.0 s, 0.0 MB/s" {
		t.Error((&Summary{}).Line())
	}
}

func TestReadError(t *testing.T) {
	t.Parallel()
	e := &ReadError{Source: "a.warc.gz", Offset: 1219, Record: 7, Class: ClassContainer, Err: ErrGarbage, Excerpt: "CORRUPTED"}
	if got := e.Error(); got != `a.warc.gz:1219: record 7: container: garbage between records near "CORRUPTED"` {
		t.Error(got)
	}
	if !errors.Is(e, ErrGarbage) {
		t.Error("Unwrap")
	}
	e.Record = -1
	if strings.Contains(e.Error(), "record") && !strings.Contains(e.Error(), "between records") {
		t.Error(e.Error())
	}
	if excerpt(bytes.Repeat([]byte("x"), 1000)) != strings.Repeat("x", maxExcerpt) {
		t.Error("excerpt not capped")
	}
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	if err := (Config{}).Validate(); err != nil {
		t.Fatalf("zero config: %v", err)
	}
	d := DefaultConfig()
	if d.Workers < 1 || d.BodyLimit != 512000 || d.Retry != (RetryPolicy{MaxTries: 6, BaseDelay: time.Second, MaxDelay: time.Minute}) || d.Fields.URL != "url" ||
		d.ConnectTimeout != 30*time.Second || d.HeaderTimeout != time.Minute || d.IdleTimeout != time.Minute {
		t.Errorf("defaults %+v", d)
	}
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"negative_workers", Config{Workers: -1}},
		{"negative_body_limit", Config{BodyLimit: -5}},
		{"record_limit_below_body_limit", Config{BodyLimit: 1 << 20, RecordLimit: 1 << 20}},
		{"bad_shard", Config{Shard: Shard{3, 2}}},
		{"bad_responses", Config{Responses: 9}},
		{"bad_retry", Config{Retry: RetryPolicy{MaxTries: 1, BaseDelay: time.Minute, MaxDelay: time.Second}}},
		{"negative_connect_timeout", Config{ConnectTimeout: -time.Second}},
		{"negative_header_timeout", Config{HeaderTimeout: -1}},
		{"negative_idle_timeout", Config{IdleTimeout: -time.Minute}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.cfg.Validate(); !errors.Is(err, ErrConfig) && !errors.Is(err, ErrShard) {
				t.Errorf("Validate: %v", err)
			}
		})
	}
	if _, err := ParseResponses("some"); !errors.Is(err, ErrConfig) {
		t.Error(err)
	}
	for _, s := range []string{"auto", "robots", "all"} {
		if r, err := ParseResponses(s); err != nil || r.String() != s {
			t.Error(s, r, err)
		}
	}
}

// TestProgress draws the bar into a buffer standing in for a terminal.
func TestProgress(t *testing.T) {
	needCorpus(t)
	var buf syncBuffer
	var once sync.Once
	sum, err := Run(context.Background(), Config{Progress: &buf}, []string{corpus + "warc/real/heritrix-2008-blackbook.warc.gz"}, func(int, *record.Capture) error {
		once.Do(func() { time.Sleep(3 * progressEvery / 2) }) // let the bar draw once
		return nil
	})
	if err != nil || sum.Captures != 38 {
		t.Fatal(err, sum.Captures)
	}
	if !strings.Contains(buf.String(), "38 captures") || !strings.Contains(buf.String(), "100%") {
		t.Errorf("progress output %q", buf.String())
	}
	// Whether stderr is a terminal is the command's to decide: it passes no
	// Progress writer otherwise (cmd/robotstat TestAnalyzeSample checks that
	// nothing is drawn there).
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }
