package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"

	"github.com/robotstat/robotstat/internal/cli"
	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/pipeline/awss3"
)

// crawlFlags say which files of a crawl are read and how politely they are
// downloaded. analyze and status take them alike, so that status lists
// what the analyze command would read.
type crawlFlags struct {
	ccBase, segments   string
	sample             int
	downloads, retries int
	rate               float64
	s3                 awss3.Config
}

func (f *crawlFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.ccBase, "cc-base", pipeline.DefaultCCBase, "read crawl names (CC-MAIN-YYYY-WW) from `URL` or folder: a Common Crawl mirror laid out as crawl-data/CC-MAIN-YYYY-WW/robotstxt.paths.gz")
	fs.IntVar(&f.sample, "sample", 0, "read only `N` files of each crawl or manifest, the same N every time, spread over its segments (0: all)")
	fs.StringVar(&f.segments, "segments", "", "read only the files of crawls and manifests in these segments: `LIST` of segment ids, e.g. 1722640353668.0,1722640353668.1")
	fs.IntVar(&f.downloads, "downloads", pipeline.DefaultDownloads, "http(s) inputs: download at most `N` at once")
	fs.Float64Var(&f.rate, "rate", pipeline.DefaultRate, "http(s) inputs: at most `R` requests per second over all downloads, retries included (-1: no limit)")
	fs.StringVar(&f.s3.Endpoint, "s3-endpoint", "", "s3:// inputs: an S3-compatible server at `URL` instead of AWS (path-style requests)")
	fs.StringVar(&f.s3.Region, "s3-region", "", "s3:// inputs: the bucket's `REGION` (default $AWS_REGION, else us-east-1, Common Crawl's)")
	fs.StringVar(&f.s3.Credentials, "s3-credentials", awss3.CredentialsAuto, "s3:// inputs: `WHICH` credentials: auto (the environment's or ~/.aws/credentials when there are some, else anonymous), anonymous, or default (the AWS SDK's chain: instance roles, SSO too)")
	fs.IntVar(&f.retries, "retries", pipeline.DefaultRetries, "http(s) inputs: `N` tries in all of a request refused (403, 429, 5xx) or cut, 1 s apart and doubling (a minute at most)")
}

// apply validates the flags into pc (cmd names the subcommand for usage
// errors) and checks them against the inputs: --crawl cannot rename a
// crawl given by name.
func (f *crawlFlags) apply(cmd string, pc *pipeline.Config, inputs []string, crawl string, getenv func(string) string) error {
	if f.sample < 0 {
		return cli.Usagef(cmd, "--sample must be 0 (all) or more, got %d", f.sample)
	}
	if f.downloads < 1 {
		return cli.Usagef(cmd, "--downloads must be at least 1, got %d", f.downloads)
	}
	if f.retries < 1 {
		return cli.Usagef(cmd, "--retries must be at least 1 (one try, no retry), got %d", f.retries)
	}
	if f.rate == 0 || f.rate != f.rate || math.IsInf(f.rate, 0) || (f.rate > 0 && f.rate < 1.0/86400) {
		return cli.Usagef(cmd, "--rate must be at least 0.000012 (one request a day), or -1 for no limit, got %v", f.rate)
	}
	if crawl != "" {
		// Any name of a collection may name a crawl (a scan's, a crawl
		// of one's own: package schema escapes its partition folder), but
		// one that is almost a Common Crawl name is a typo, which would
		// file the captures under a crawl of their own.
		if len(crawl) >= 7 && strings.EqualFold(crawl[:7], "CC-MAIN") && !pipeline.IsCrawlName(crawl) {
			return cli.Usagef(cmd, "--crawl %q: %s", crawl, pipeline.CrawlNameForm)
		}
		for _, in := range inputs {
			if pipeline.IsCrawlInput(in) {
				return cli.Usagef(cmd, "--crawl %s: the crawl %s is read as %s; give --crawl only for other inputs, in a command of their own", crawl, in, in)
			}
			if p := pipeline.CrawlOfPath(in); p != "" && p != crawl {
				return cli.Usagef(cmd, "--crawl %s: the path %s names the crawl %s (crawl-data/%s/), whose captures it holds; leave --crawl out (a path that names a crawl files its captures under it), or give --crawl only for inputs whose path names none, in a command of their own", crawl, in, p, p)
			}
		}
	}
	for _, in := range inputs {
		if pipeline.AlmostCrawlInput(in) {
			return cli.Usagef(cmd, "%s is neither a file nor a crawl name: %s", in, pipeline.CrawlNameForm)
		}
	}
	pc.CCBase = f.ccBase
	pc.Sample = f.sample
	if f.segments != "" {
		for _, s := range strings.Split(f.segments, ",") {
			if s = strings.TrimSpace(s); s != "" {
				pc.Segments = append(pc.Segments, s)
			}
		}
	}
	if err := f.s3.Validate(); err != nil {
		return cli.Usagef(cmd, "--s3-credentials %q: want auto, anonymous or default", f.s3.Credentials)
	}
	s3 := f.s3
	s3.Getenv = getenv
	pc.S3 = awss3.New(s3)
	pc.Downloads = f.downloads
	pc.Rate = f.rate
	pc.Retry.MaxTries = f.retries
	return nil
}

// retryPrinter prints the pipeline's retry events on stderr, one line
// each, so that a burst of refusals is never silent: which URL, how long
// robotstat waits, which try of how many comes next, and what the last
// answered (its status, S3's code and message).
type retryPrinter struct {
	mu sync.Mutex
	w  io.Writer
}

func (p *retryPrinter) notice(e pipeline.RetryEvent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "robotstat: %s\n", e)
}
