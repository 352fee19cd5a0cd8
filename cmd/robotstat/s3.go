package main

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// s3Flags say how s3:// inputs are read.
type s3Flags struct {
	endpoint, region, credentials string
}

// defaultS3Region is Common Crawl's bucket's.
const defaultS3Region = "us-east-1"

// Values of --s3-credentials.
const (
	s3CredAuto      = "auto"
	s3CredAnonymous = "anonymous"
	s3CredDefault   = "default"
)

// lazyS3 is pipeline.S3Getter through aws-sdk-go-v2: the client of a run,
// made at the first s3:// read, so that a run without one loads no AWS
// configuration. Safe for concurrent use.
type lazyS3 struct {
	flags  s3Flags
	getenv func(string) string

	once   sync.Once
	client *s3.Client
	err    error
}

// GetObject is one GetObject, handed back as the HTTP response it was: an
// S3 error is its status with S3's XML error body rebuilt from the code and
// message the SDK parsed, so that the pipeline treats it as over HTTP.
func (l *lazyS3) GetObject(ctx context.Context, bucket, key, rng string) (*http.Response, error) {
	l.once.Do(func() { l.client, l.err = l.make(ctx) })
	if l.err != nil {
		return nil, l.err
	}
	in := &s3.GetObjectInput{Bucket: &bucket, Key: &key}
	if rng != "" {
		in.Range = &rng
	}
	out, err := l.client.GetObject(ctx, in)
	if err != nil {
		var re *smithyhttp.ResponseError
		if !errors.As(err, &re) || re.Response == nil || re.Response.Response == nil {
			return nil, err // no response: a network failure, retried
		}
		code, msg := "", ""
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

// make builds the client: the SDK's default configuration (environment,
// shared files, instance roles) when credentials are to be used, else
// anonymous requests, which need no configuration at all. No retryer: the
// pipeline retries, paces and resumes every read itself.
func (l *lazyS3) make(ctx context.Context) (*s3.Client, error) {
	anonymous := l.flags.credentials == s3CredAnonymous || (l.flags.credentials == s3CredAuto && !awsCredentialsConfigured(l.getenv))
	noRetry := func() aws.Retryer { return aws.NopRetryer{} }
	var cfg aws.Config
	if anonymous {
		cfg = aws.Config{Region: l.flags.region, Credentials: aws.AnonymousCredentials{}, Retryer: noRetry}
		if cfg.Region == "" {
			cfg.Region = l.getenv("AWS_REGION")
		}
	} else {
		opts := []func(*config.LoadOptions) error{config.WithRetryer(noRetry)}
		if l.flags.region != "" {
			opts = append(opts, config.WithRegion(l.flags.region))
		}
		var err error
		if cfg, err = config.LoadDefaultConfig(ctx, opts...); err != nil {
			return nil, fmt.Errorf("loading the AWS configuration for s3:// inputs: %w", err)
		}
	}
	if cfg.Region == "" {
		cfg.Region = defaultS3Region
	}
	return s3.NewFromConfig(cfg, func(o *s3.Options) {
		if l.flags.endpoint != "" {
			o.BaseEndpoint = aws.String(l.flags.endpoint)
			o.UsePathStyle = true // an S3-compatible server on one host
		}
	}), nil
}

// awsCredentialsConfigured reports credentials in the environment or the
// shared files, the ones "auto" uses; instance roles and SSO need
// --s3-credentials default.
func awsCredentialsConfigured(getenv func(string) string) bool {
	for _, v := range []string{"AWS_ACCESS_KEY_ID", "AWS_PROFILE", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"} {
		if getenv(v) != "" {
			return true
		}
	}
	file := getenv("AWS_SHARED_CREDENTIALS_FILE")
	if file == "" {
		if home := getenv("HOME"); home != "" {
			file = filepath.Join(home, ".aws", "credentials")
		}
	}
	if file == "" {
		return false
	}
	_, err := os.Stat(file)
	return err == nil
}
