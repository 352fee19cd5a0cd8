package pipeline

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestOnRetrySaysWhatIsRetried: issue 10 item 6. A refused connection was
// retried for 31 s without a word; Config.OnRetry is told of every retry,
// with the try, the wait and the failure, before the wait.
func TestOnRetrySaysWhatIsRetried(t *testing.T) {
	t.Parallel()
	// A port that refuses: listen on loopback, note the port, close.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/crawl.warc.gz"
	ln.Close()

	var mu sync.Mutex
	var events []RetryEvent
	var slept []time.Duration
	cfg := Config{
		Retry: RetryPolicy{MaxTries: 3, BaseDelay: time.Second, MaxDelay: time.Minute},
		OnRetry: func(e RetryEvent) {
			mu.Lock()
			events = append(events, e)
			mu.Unlock()
		},
		testSleep: func(ctx context.Context, d time.Duration) error {
			mu.Lock()
			slept = append(slept, d)
			mu.Unlock()
			return ctx.Err()
		},
	}
	_, _, err = collect(t, cfg, url)
	if !errors.Is(err, ErrGaveUp) {
		t.Fatalf("err %v, want ErrGaveUp", err)
	}
	if len(events) != 2 || len(slept) != 2 {
		t.Fatalf("%d retry events, %d waits; want 2 and 2: %+v", len(events), len(slept), events)
	}
	for i, e := range events {
		if e.URL != url || e.Try != i+2 || e.MaxTries != 3 || e.Wait != slept[i] || e.Err == nil || !strings.Contains(e.Err.Error(), "refused") {
			t.Errorf("event %d: %+v (waited %v)", i, e, slept[i])
		}
	}
}
