// Package awss3 reads the s3:// inputs of package pipeline through the AWS
// SDK for Go v2: a Getter is a pipeline.S3Getter (pipeline.Config.S3). It
// is its own package so that pipeline, and a program that reads no s3://
// input, does not depend on the SDK.
//
// It reads the environment only through Config.Getenv, except that
// CredentialsDefault hands the client's making to the SDK's default chain
// (config.LoadDefaultConfig), which reads the environment, the shared
// files and instance metadata itself: that is what it is for.
package awss3

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

// Config says how s3:// inputs are read (robotstat's --s3-* flags).
type Config struct {
	// Endpoint is an S3-compatible server's URL, read with path-style
	// requests; "" is AWS.
	Endpoint string
	// Region is the bucket's region; "" is AWS_REGION for anonymous
	// requests, the SDK's for the others, then DefaultRegion.
	Region string
	// Credentials is CredentialsAuto (the default), CredentialsAnonymous
	// or CredentialsDefault.
	Credentials string
	// Getenv reads the environment for CredentialsAuto and anonymous
	// requests; nil reads none.
	Getenv func(string) string
}

// DefaultRegion is Common Crawl's bucket's.
const DefaultRegion = "us-east-1"

// Values of Config.Credentials.
const (
	// CredentialsAuto uses credentials when the environment or the shared
	// credentials file has some (AWS_ACCESS_KEY_ID, AWS_PROFILE, ...), else
	// sends anonymous requests.
	CredentialsAuto = "auto"
	// CredentialsAnonymous sends unsigned requests (Common Crawl's bucket
	// allows them).
	CredentialsAnonymous = "anonymous"
	// CredentialsDefault uses the SDK's default chain: instance roles and
	// SSO too.
	CredentialsDefault = "default"
)

// Validate checks Credentials.
func (c Config) Validate() error {
	switch c.Credentials {
	case "", CredentialsAuto, CredentialsAnonymous, CredentialsDefault:
		return nil
	}
	return fmt.Errorf("awss3: credentials %q: want auto, anonymous or default", c.Credentials)
}

// New returns the Getter of cfg. Its client is made at its first read, so
// that a run without s3:// inputs loads no AWS configuration.
func New(cfg Config) *Getter {
	if cfg.Getenv == nil {
		cfg.Getenv = func(string) string { return "" }
	}
	if cfg.Credentials == "" {
		cfg.Credentials = CredentialsAuto
	}
	return &Getter{cfg: cfg}
}

// Getter is pipeline.S3Getter through aws-sdk-go-v2: one client, made at
// the first read. Safe for concurrent use.
type Getter struct {
	cfg Config

	once   sync.Once
	client *s3.Client
	err    error
}

// GetObject is one GetObject, handed back as the HTTP response it was: an
// S3 error is its status with S3's XML error body rebuilt from the code and
// message the SDK parsed, so that the pipeline treats it as over HTTP.
func (l *Getter) GetObject(ctx context.Context, bucket, key, rng string) (*http.Response, error) {
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
func (l *Getter) make(ctx context.Context) (*s3.Client, error) {
	anonymous := l.cfg.Credentials == CredentialsAnonymous || (l.cfg.Credentials == CredentialsAuto && !credentialsConfigured(l.cfg.Getenv))
	noRetry := func() aws.Retryer { return aws.NopRetryer{} }
	var cfg aws.Config
	if anonymous {
		cfg = aws.Config{Region: l.cfg.Region, Credentials: aws.AnonymousCredentials{}, Retryer: noRetry}
		if cfg.Region == "" {
			cfg.Region = l.cfg.Getenv("AWS_REGION")
		}
	} else {
		opts := []func(*config.LoadOptions) error{config.WithRetryer(noRetry)}
		if l.cfg.Region != "" {
			opts = append(opts, config.WithRegion(l.cfg.Region))
		}
		var err error
		if cfg, err = config.LoadDefaultConfig(ctx, opts...); err != nil {
			return nil, fmt.Errorf("loading the AWS configuration for s3:// inputs: %w", err)
		}
	}
	if cfg.Region == "" {
		cfg.Region = DefaultRegion
	}
	return s3.NewFromConfig(cfg, func(o *s3.Options) {
		if l.cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(l.cfg.Endpoint)
			o.UsePathStyle = true // an S3-compatible server on one host
		}
	}), nil
}

// credentialsConfigured reports credentials in the environment or the
// shared files, the ones CredentialsAuto uses; instance roles and SSO
// need CredentialsDefault.
func credentialsConfigured(getenv func(string) string) bool {
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
