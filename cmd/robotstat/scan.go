package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/robotstat/robotstat/internal/cli"
	"github.com/robotstat/robotstat/scan"
)

func init() {
	register(command{name: "scan", summary: "fetch today's robots.txt of a list of hosts into WARC files, then analyze them", run: (*Main).scan,
		exits: []int{ExitOK, ExitUsage, ExitInputErrors, ExitInputsFailed, ExitInterrupted}})
}

// projectURL is the contact URL of the default User-Agent.
const projectURL = "https://github.com/robotstat/robotstat"

type scanFlags struct {
	analyze                             analyzeFlags
	top, concurrency                    int
	schemes, userAgent, timeout, testCA string
	warcSize                            int64
	fetchOnly, allowPrivate             bool
	resolve                             stringList
}

// stringList is a repeatable flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

func (m *Main) scan(ctx context.Context, args []string) error {
	fs := cli.NewFlagSet("scan")
	var f scanFlags
	// analyze's flags, but those about inputs a scan does not have.
	afs := cli.NewFlagSet("analyze")
	f.analyze.register(afs)
	afs.VisitAll(func(fl *flag.Flag) {
		switch fl.Name {
		case "shard", "responses", "fields", "manifest-base":
		default:
			fs.Var(fl.Value, fl.Name, fl.Usage)
		}
	})
	fs.IntVar(&f.top, "top", 0, "scan only the first `N` domains of --sites (0: all)")
	fs.StringVar(&f.schemes, "schemes", "https,http", "schemes to try in order, the next when one fails: `LIST`")
	fs.StringVar(&f.userAgent, "user-agent", "robotstat/"+Version+" (+"+projectURL+")", "User-Agent `STRING`: a product token and a contact URL")
	fs.IntVar(&f.concurrency, "concurrency", scan.DefaultConcurrency, "fetch `N` hosts at once (one request at a time per host)")
	fs.StringVar(&f.timeout, "timeout", "", "fetch timeouts: a total `DURATION`, or connect=D,tls=D,header=D,total=D (default connect=10s,tls=10s,header=20s,total=30s)")
	fs.Var(&f.resolve, "resolve", "point `HOST[:PORT]=ADDR:PORT` (HOST may be *) at an address, as curl --resolve; repeatable")
	fs.BoolVar(&f.allowPrivate, "allow-private", false, "also fetch loopback, private and link-local addresses that the DNS, the host list or a redirect names (refused by default, counted as \"blocked\"; --resolve targets are always fetched)")
	fs.StringVar(&f.testCA, "test-ca", "", "also trust the CA certificates in PEM `FILE` (for test servers)")
	fs.Int64Var(&f.warcSize, "warc-size", scan.DefaultFileSize, "start a new WARC file past `BYTES`")
	fs.BoolVar(&f.fetchOnly, "fetch-only", false, "write the WARC files only, no tables (later: robotstat analyze --responses all --out DIR DIR/warc)")
	hosts, err := parseFlags(fs, args, m.Stdout, scanUsage)
	if err != nil {
		return cli.IgnoreHelp(err)
	}
	return m.runScan(ctx, f, hosts, args)
}

func (m *Main) runScan(ctx context.Context, f scanFlags, args, cmdline []string) error {
	af := f.analyze
	if af.out == "" {
		return cli.Usagef("scan", "--out must name a folder")
	}
	if f.top < 0 {
		return cli.Usagef("scan", "--top must be 0 or more, got %d", f.top)
	}
	if f.top > 0 && af.sites == "" {
		return cli.Usagef("scan", "--top needs --sites FILE")
	}
	cfg := scan.DefaultConfig()
	cfg.Dir = filepath.Join(af.out, "warc")
	cfg.Schemes = strings.Split(f.schemes, ",")
	cfg.UserAgent = f.userAgent
	cfg.Concurrency = f.concurrency
	cfg.FileSize = f.warcSize
	cfg.AllowPrivate = f.allowPrivate
	cfg.Software = "robotstat/" + Version + " (+" + projectURL + ")"
	cfg.Options = "robotstat scan " + strings.Join(cmdline, " ")
	var err error
	if cfg.Timeouts, err = scan.ParseTimeouts(f.timeout); err != nil {
		return cli.Usagef("scan", "--timeout: %v", err)
	}
	if cfg.Resolve, err = scan.ParseResolve(f.resolve); err != nil {
		return cli.Usagef("scan", "--resolve: %v", err)
	}
	if f.testCA != "" {
		pem, err := os.ReadFile(f.testCA)
		if err != nil {
			return fmt.Errorf("--test-ca: %w", err)
		}
		if cfg.RootCAs, err = scan.TrustPEM(pem); err != nil {
			return cli.Usagef("scan", "--test-ca: %s %v", f.testCA, err)
		}
	}
	cfg.Crawl = af.crawl
	if cfg.Crawl == "" {
		if cfg.Crawl, err = scan.ResumeCrawl(cfg.Dir, time.Now()); err != nil {
			return fmt.Errorf("reading %s: %w", cfg.Dir, err)
		}
	}
	if !af.quiet && m.StderrIsTerminal {
		cfg.Progress = m.Stderr
	}
	if err := cfg.Validate(); err != nil {
		return cli.Usagef("scan", "%v", err)
	}

	var hosts []string
	for _, a := range args {
		h, err := scan.NormalizeHost(a)
		if err != nil {
			fmt.Fprintf(m.Stderr, "robotstat: scan: skipping %v\n", err)
			continue
		}
		hosts = append(hosts, h)
	}
	if af.sites != "" {
		sites, err := loadWith(m, af.sites, func(r io.Reader) ([]string, error) {
			return scan.ReadSites(r, f.top, func(line int, err error) {
				fmt.Fprintf(m.Stderr, "robotstat: scan: %s line %d: skipping %v\n", af.sites, line, err)
			})
		})
		if err != nil {
			return fmt.Errorf("--sites: %w", err)
		}
		hosts = append(hosts, sites...)
	}
	if len(hosts) == 0 {
		return cli.Usagef("scan", "no hosts to scan: give HOST arguments or --sites FILE")
	}

	sum, err := scan.Run(ctx, cfg, hosts)
	for _, r := range sum.Repaired {
		fmt.Fprintf(m.Stderr, "robotstat: scan: %s ended inside a record (a killed run); cut back to its last complete record\n", r)
	}
	fmt.Fprintf(m.Stderr, "robotstat: scan %s: %s\n", cfg.Crawl, sum.Line())
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted; the hosts scanned so far are in %s, a rerun goes on from there: %w", cfg.Dir, ctx.Err())
		}
		return fmt.Errorf("scan: %w", err)
	}
	if f.fetchOnly {
		return nil
	}
	// The folder as the one input: its run id stays the same as the scan
	// grows, so a resumed scan's tables replace the earlier ones.
	af.crawl = cfg.Crawl
	af.responses = "all" // redirect targets are captures too, as in Common Crawl's robotstxt WARCs
	return m.runAnalyze(ctx, af, []string{cfg.Dir})
}
