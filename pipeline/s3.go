package pipeline

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// S3Getter is what Run needs of an S3 client for s3://bucket/key inputs:
// *s3.Client satisfies it. Give it no retryer of its own (aws.NopRetryer):
// the fetcher retries, paces and resumes S3 reads as it does http(s) ones,
// and says so through Config.OnRetry.
type S3Getter interface {
	GetObject(ctx context.Context, in *s3.GetObjectInput, opts ...func(*s3.Options)) (*s3.GetObjectOutput, error)
}

func isS3(s string) bool { return strings.HasPrefix(s, "s3://") }

// s3Do makes one try of an s3:// request as a GetObject (Range included)
// and hands it back as the HTTP response it was, so that one code path
// (fetch.go) retries, resumes and times out http(s) and S3 reads alike: an
// S3 error is its status with S3's XML error body rebuilt from the code
// and message the SDK parsed (503 SlowDown is recognised as over HTTP).
func (f *fetcher) s3Do(req *http.Request) (*http.Response, error) {
	if f.s3 == nil {
		return nil, fmt.Errorf("%w: %s", ErrNoS3, req.URL)
	}
	bucket, key := req.URL.Host, strings.TrimPrefix(req.URL.Path, "/")
	if bucket == "" || key == "" {
		return nil, fmt.Errorf("%w %s: want s3://bucket/key", ErrFetch, req.URL)
	}
	in := &s3.GetObjectInput{Bucket: &bucket, Key: &key}
	if r := req.Header.Get("Range"); r != "" {
		in.Range = &r
	}
	out, err := f.s3.GetObject(req.Context(), in)
	if err != nil {
		var re *smithyhttp.ResponseError
		if !errors.As(err, &re) || re.Response == nil || re.Response.Response == nil {
			return nil, err // no response: a network failure, retried
		}
		code, msg := "", err.Error()
		var ae smithy.APIError
		if errors.As(err, &ae) {
			code, msg = ae.ErrorCode(), ae.ErrorMessage()
		}
		st := re.HTTPStatusCode()
		body := "<Error><Code>" + html.EscapeString(code) + "</Code><Message>" + html.EscapeString(msg) + "</Message></Error>"
		return &http.Response{StatusCode: st, Status: strconv.Itoa(st) + " " + http.StatusText(st), Header: re.Response.Header,
			Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body))}, nil
	}
	resp := &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Header: http.Header{}, Body: out.Body, ContentLength: -1}
	if out.ContentLength != nil {
		resp.ContentLength = *out.ContentLength
	}
	if out.ContentRange != nil && *out.ContentRange != "" {
		resp.StatusCode, resp.Status = http.StatusPartialContent, "206 Partial Content"
		resp.Header.Set("Content-Range", *out.ContentRange)
	}
	return resp, nil
}
