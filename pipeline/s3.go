package pipeline

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// S3Getter reads S3 objects for s3://bucket/key inputs (Config.S3). It
// keeps the pipeline free of any SDK: robotstat's command implements it
// with aws-sdk-go-v2's GetObject.
//
// GetObject makes one request for the object (from the byte range rng
// when not "", as in "bytes=N-") and returns the answer as the HTTP
// response it was: 200 with the body (ContentLength when known), 206 with
// Content-Range for a range, or the error status with a body holding S3's
// XML error (Code, Message) so that 503 SlowDown is recognised as over
// HTTP. An error is for no response at all (a network failure), retried
// like one. It makes no retries of its own: the fetcher retries, paces,
// resumes and times out S3 reads as it does http(s) ones (the try's
// timeouts cancel ctx) and says so through Config.OnRetry. It must be safe
// for concurrent use.
type S3Getter interface {
	GetObject(ctx context.Context, bucket, key, rng string) (*http.Response, error)
}

func isS3(s string) bool { return strings.HasPrefix(s, "s3://") }

// s3Do makes one try of an s3:// request through Config.S3.
func (f *fetcher) s3Do(req *http.Request) (*http.Response, error) {
	if f.s3 == nil {
		return nil, fmt.Errorf("%w: %s", ErrNoS3, req.URL)
	}
	bucket, key := req.URL.Host, strings.TrimPrefix(req.URL.Path, "/")
	if bucket == "" || key == "" {
		return nil, fmt.Errorf("%w %s: want s3://bucket/key", ErrFetch, req.URL)
	}
	return f.s3.GetObject(req.Context(), bucket, key, req.Header.Get("Range"))
}
