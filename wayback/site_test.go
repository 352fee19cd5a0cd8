package wayback_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robotstat/robotstat/wayback"
	"github.com/robotstat/robotstat/wayback/waybacktest"
)

// plainGetter gets without retries: package pipeline's getter is tested
// through the command.
type plainGetter struct{}

func (plainGetter) Get(ctx context.Context, url string) (*wayback.Response, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", wayback.ErrCut, err)
	}
	return &wayback.Response{Status: resp.StatusCode, Header: resp.Header, Body: body}, nil
}

func at(s string) time.Time {
	t, err := time.Parse("2006-01-02 15:04", s)
	if err != nil {
		panic(err)
	}
	return t
}

// captures lists a result's captures as "crawl hop url @time reused".
func captures(res *wayback.Result) []string {
	var out []string
	for _, c := range res.Captures {
		r := ""
		if c.Reused {
			r = " reused"
		}
		out = append(out, fmt.Sprintf("%s %s %d %s @%s%s", c.Month.Crawl(), c.Host, c.Hop, c.URL, c.Time.Format("2006-01-02"), r))
	}
	return out
}

func TestReadSite(t *testing.T) {
	t.Parallel()
	srv := waybacktest.NewServer()
	defer srv.Close()
	a, b := "User-agent: *\nDisallow: /a\n", "User-agent: GPTBot\nDisallow: /\n"
	srv.Add(
		// 2020-01: two captures; the first counts.
		waybacktest.Robots("http://example.com/robots.txt", at("2020-01-03 10:00"), a),
		waybacktest.Robots("https://example.com/robots.txt", at("2020-01-20 10:00"), b),
		// 2020-02: the same body as January's first: reused.
		waybacktest.Robots("http://example.com/robots.txt", at("2020-02-05 10:00"), a),
		// 2020-03: none. 2020-04: a redirect to https, which the rows list.
		waybacktest.Redirect("http://example.com/robots.txt", at("2020-04-02 10:00"), 301, "https://example.com/robots.txt"),
		waybacktest.Robots("https://example.com/robots.txt", at("2020-04-02 10:01"), b),
		// 2020-05: a 404; 2020-06: an archived 503.
		waybacktest.Capture{URL: "http://example.com/robots.txt", Time: at("2020-05-09 00:00"), Status: 404, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("nope")},
		waybacktest.Capture{URL: "http://example.com/robots.txt", Time: at("2020-06-09 00:00"), Status: 503, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("down")},
		// www. is a host of its own: a redirect to another host, read
		// through the archive at its nearest capture.
		waybacktest.Redirect("https://www.example.com/robots.txt", at("2020-01-10 00:00"), 302, "https://cdn.example.net/robots.txt"),
		waybacktest.Robots("https://cdn.example.net/robots.txt", at("2019-12-31 00:00"), b),
		// Not the host's own /robots.txt.
		waybacktest.Robots("http://example.com/robots.txt?x=1", at("2020-03-01 00:00"), a),
	)
	cfg := wayback.Config{Base: srv.Base(), Range: wayback.Range{From: wayback.Month(2020 * 12), To: wayback.Month(2020*12 + 6)}, Archive: t.TempDir()}
	res, err := wayback.ReadSite(context.Background(), plainGetter{}, cfg, []string{"example.com", "www.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"wayback-2020-01 example.com 0 http://example.com/robots.txt @2020-01-03",
		"wayback-2020-01 www.example.com 0 https://www.example.com/robots.txt @2020-01-10",
		"wayback-2020-01 www.example.com 1 https://cdn.example.net/robots.txt @2019-12-31",
		"wayback-2020-02 example.com 0 http://example.com/robots.txt @2020-02-05 reused",
		"wayback-2020-04 example.com 0 http://example.com/robots.txt @2020-04-02",
		"wayback-2020-04 example.com 1 https://example.com/robots.txt @2020-04-02",
		"wayback-2020-05 example.com 0 http://example.com/robots.txt @2020-05-09",
		"wayback-2020-06 example.com 0 http://example.com/robots.txt @2020-06-09",
	}
	if got := captures(res); !slices.Equal(got, want) {
		t.Errorf("captures:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(res.Errors) > 0 {
		t.Errorf("errors: %v", res.Errors)
	}
	if got, want := res.Found["example.com"], []bool{true, true, false, true, true, true, false}; !slices.Equal(got, want) {
		t.Errorf("example.com found %v, want %v", got, want)
	}
	// One CDX query; replays: Jan a, Apr redirect + https, May, Jun; www's
	// redirect, the archive's redirect to cdn's nearest capture, cdn.
	if res.CDXRequests != 1 || res.Replays != 8 || res.Reused != 1 || srv.Requests("cdx") != 1 || srv.Requests("replay") != 8 {
		t.Errorf("%d CDX, %d replays, %d reused (server: %d, %d), want 1, 8, 1\n%s", res.CDXRequests, res.Replays, res.Reused,
			srv.Requests("cdx"), srv.Requests("replay"), strings.Join(srv.Log(), "\n"))
	}
	// A rerun over the same archive folder fetches nothing.
	res2, err := wayback.ReadSite(context.Background(), plainGetter{}, cfg, []string{"example.com", "www.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if res2.CDXRequests+res2.Replays != 0 || res2.Archived != 9 || srv.Requests("cdx")+srv.Requests("replay") != 9 {
		t.Errorf("rerun: %d requests, %d read back", res2.CDXRequests+res2.Replays, res2.Archived)
	}
	for i := range res.Captures {
		if string(res.Captures[i].Record) != string(res2.Captures[i].Record) {
			t.Errorf("rerun: capture %d differs:\n%s\nwant\n%s", i, res2.Captures[i].Record, res.Captures[i].Record)
		}
	}
	// An archived answer cut (a power loss: files are not synced) is
	// fetched again.
	files, _ := filepath.Glob(filepath.Join(cfg.Archive, "2020*.warc.gz"))
	if err := os.Truncate(files[0], 20); err != nil {
		t.Fatal(err)
	}
	res3, err := wayback.ReadSite(context.Background(), plainGetter{}, cfg, []string{"example.com", "www.example.com"})
	if err != nil || res3.Replays != 1 || res3.Archived != 8 || len(res3.Errors) > 0 {
		t.Errorf("after a cut archive file: %d replays, %d read back, %v, %v", res3.Replays, res3.Archived, res3.Errors, err)
	}
	// The redirect's record names its target, not the archive's rewrite.
	if r := string(res.Captures[4].Record); !strings.Contains(r, "\r\nLocation: https://example.com/robots.txt\r\n") || !strings.Contains(r, "HTTP/1.1 301 ") {
		t.Errorf("redirect record:\n%s", r)
	}
}

func TestReadSiteBadInput(t *testing.T) {
	t.Parallel()
	body := "User-agent: *\nDisallow: /private/and/more/\n"
	tests := []struct {
		name   string
		kind   string
		faults []string
		want   error
		found  []bool
	}{
		{name: "cdx_not_json", kind: "cdx", faults: []string{waybacktest.FaultNotJSON}, want: wayback.ErrCDX, found: []bool{false, false}},
		{name: "cdx_cut", kind: "cdx", faults: []string{waybacktest.FaultCut}, want: wayback.ErrCut, found: []bool{false, false}},
		{name: "replay_status", kind: "replay", faults: []string{waybacktest.FaultStatus}, want: wayback.ErrStatus, found: []bool{false, true}},
		{name: "replay_digest", kind: "replay", faults: []string{waybacktest.FaultDigest}, want: wayback.ErrDigest, found: []bool{false, true}},
		{name: "replay_cut", kind: "replay", faults: []string{waybacktest.FaultCut}, want: wayback.ErrCut, found: []bool{false, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := waybacktest.NewServer()
			defer srv.Close()
			srv.Add(waybacktest.Robots("https://example.org/robots.txt", at("2021-03-01 00:00"), body),
				waybacktest.Robots("https://example.org/robots.txt", at("2021-04-01 00:00"), body+"# changed\n"))
			srv.Fail(tt.kind, tt.faults...)
			cfg := wayback.Config{Base: srv.Base(), Range: wayback.Range{From: wayback.Month(2021*12 + 2), To: wayback.Month(2021*12 + 3)}}
			res, err := wayback.ReadSite(context.Background(), plainGetter{}, cfg, []string{"example.org"})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Errors) != 1 || !errors.Is(res.Errors[0], tt.want) {
				t.Fatalf("errors %v, want one %v", res.Errors, tt.want)
			}
			if got := res.Found["example.org"]; !slices.Equal(got, tt.found) {
				t.Errorf("found %v, want %v", got, tt.found)
			}
			for i, f := range tt.found {
				if got := res.Failed["example.org"][i]; got == f {
					t.Errorf("month %d: failed %v", i, got)
				}
			}
			if n := len(res.Captures); n != 1 && tt.kind == "replay" || n != 0 && tt.kind == "cdx" {
				t.Errorf("%d captures", n)
			}
		})
	}
}

func TestParseRange(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want, err string }{
		{in: "wayback:2016-01..2026-11", want: "wayback:2016-01..2026-11"},
		{in: "wayback:2020-05", want: "wayback:2020-05..2020-05"},
		{in: "wayback:2020-05..2020-04", err: "before"},
		{in: "wayback:2020-13..2021-01", err: "YYYY-MM"},
		{in: "wayback:2020-1..2021-01", err: "YYYY-MM"},
		{in: "CC-MAIN-2024-33", err: "not a Wayback source"},
	}
	for _, tt := range tests {
		r, err := wayback.ParseRange(tt.in)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: error %v, want one with %q", tt.in, err, tt.err)
		case tt.err == "" && (err != nil || r.String() != tt.want):
			t.Errorf("%s: %v, %v, want %s", tt.in, r, err, tt.want)
		}
	}
}

// TestReadSiteRedirectChain: five redirects are followed (RFC 9309
// §2.3.1.2), the target of a sixth is not read.
func TestReadSiteRedirectChain(t *testing.T) {
	t.Parallel()
	srv := waybacktest.NewServer()
	defer srv.Close()
	for _, n := range []int{5, 6} {
		h := fmt.Sprintf("r%d.example", n)
		for i := range n {
			srv.Add(waybacktest.Redirect(fmt.Sprintf("https://%s/r%d", h, i), at("2022-01-02 00:00"), 301, fmt.Sprintf("https://%s/r%d", h, i+1)))
		}
		srv.Add(waybacktest.Robots(fmt.Sprintf("https://%s/r%d", h, n), at("2022-01-02 00:00"), "User-agent: *\nDisallow: /\n"))
		// The chain starts at /robots.txt.
		srv.Add(waybacktest.Redirect("https://"+h+"/robots.txt", at("2022-01-01 00:00"), 301, "https://"+h+"/r1"))
	}
	for n, want := range map[int]int{5: 6, 6: 6} {
		h := fmt.Sprintf("r%d.example", n)
		cfg := wayback.Config{Base: srv.Base(), Range: wayback.Range{From: wayback.Month(2022 * 12), To: wayback.Month(2022 * 12)}}
		res, err := wayback.ReadSite(context.Background(), plainGetter{}, cfg, []string{h})
		if err != nil || len(res.Errors) > 0 {
			t.Fatal(err, res.Errors)
		}
		if got := len(res.Captures); got != want {
			t.Errorf("%s: %d captures, want %d:\n%s", h, got, want, strings.Join(captures(res), "\n"))
		}
	}
}
