package awss3

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// TestGetObject reads through a real S3-compatible server on 127.0.0.1: an
// object whole (200), a range of it (206 with its Content-Range), and a
// missing key as the HTTP answer S3 gave, its code and message in S3's
// XML error body, so that the pipeline treats it as over HTTP.
func TestGetObject(t *testing.T) {
	backend := s3mem.New()
	if err := backend.CreateBucket("commoncrawl"); err != nil {
		t.Fatal(err)
	}
	data := []byte("0123456789abcdef")
	if _, err := backend.PutObject("commoncrawl", "crawl-data/x.warc.gz", map[string]string{}, bytes.NewReader(data), int64(len(data)), nil); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	g := New(Config{Endpoint: srv.URL, Credentials: CredentialsAnonymous})
	ctx := context.Background()
	for _, tc := range []struct {
		name, key, rng string
		status         int
		body, header   string
	}{
		{"whole", "crawl-data/x.warc.gz", "", http.StatusOK, string(data), ""},
		{"range", "crawl-data/x.warc.gz", "bytes=4-7", http.StatusPartialContent, "4567", "bytes 4-7/16"},
		{"missing", "crawl-data/none.warc.gz", "", http.StatusNotFound, "<Code>NoSuchKey</Code>", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := g.GetObject(ctx, "commoncrawl", tc.key, tc.rng)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status || !strings.Contains(string(body), tc.body) || resp.Header.Get("Content-Range") != tc.header {
				t.Errorf("%d %q Content-Range %q; want %d, %q, %q", resp.StatusCode, body, resp.Header.Get("Content-Range"), tc.status, tc.body, tc.header)
			}
		})
	}
}

// TestCredentialsConfigured: auto uses credentials when the environment
// names some or the shared credentials file exists, and only then.
func TestCredentialsConfigured(t *testing.T) {
	home := t.TempDir()
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	if credentialsConfigured(env("HOME", home)) {
		t.Error("a HOME without .aws/credentials has credentials")
	}
	if !credentialsConfigured(env("AWS_ACCESS_KEY_ID", "AKIA", "HOME", home)) || !credentialsConfigured(env("AWS_PROFILE", "p")) {
		t.Error("credentials in the environment not seen")
	}
	if err := os.MkdirAll(filepath.Join(home, ".aws"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".aws", "credentials"), []byte("[default]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if !credentialsConfigured(env("HOME", home)) {
		t.Error("~/.aws/credentials not seen")
	}
	if err := (Config{Credentials: "some"}).Validate(); err == nil {
		t.Error("credentials \"some\" accepted")
	}
}
