package pipeline

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestS3WithoutClient: an s3:// input without Config.S3 fails at once,
// without spending retries on an answer no try will change.
func TestS3WithoutClient(t *testing.T) {
	t.Parallel()
	var waits int
	cfg := Config{testSleep: func(_ context.Context, _ time.Duration) error { waits++; return nil }}
	_, _, err := collect(t, cfg, "s3://commoncrawl/crawl-data/x.warc.gz")
	if !errors.Is(err, ErrNoS3) || waits != 0 {
		t.Errorf("err %v after %d waits, want ErrNoS3 at once", err, waits)
	}
	if formatOf("s3://commoncrawl/crawl-data/CC-MAIN-2024-33/robotstxt.paths.gz") != formatManifest || crawlManifest("s3://commoncrawl/", "CC-MAIN-2024-33") != "s3://commoncrawl/crawl-data/CC-MAIN-2024-33/robotstxt.paths.gz" {
		t.Errorf("s3:// names are not read as URLs")
	}
}
