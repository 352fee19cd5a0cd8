package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
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

// lazyS3 is the S3 client of a run, made at the first s3:// read, so that
// a run without one loads no AWS configuration. Safe for concurrent use.
type lazyS3 struct {
	flags  s3Flags
	getenv func(string) string

	once   sync.Once
	client *s3.Client
	err    error
}

func (l *lazyS3) GetObject(ctx context.Context, in *s3.GetObjectInput, opts ...func(*s3.Options)) (*s3.GetObjectOutput, error) {
	l.once.Do(func() { l.client, l.err = l.make(ctx) })
	if l.err != nil {
		return nil, l.err
	}
	return l.client.GetObject(ctx, in, opts...)
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
