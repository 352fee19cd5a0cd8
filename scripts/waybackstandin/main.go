// Command waybackstandin serves a synthetic Wayback Machine on 127.0.0.1
// (package wayback/waybacktest: the CDX API and id_ replays) and writes
// its site list, so that robotstat panel SITES wayback:FROM..TO can be
// tried and measured offline:
//
//	go run ./scripts/waybackstandin -sites 50 -list /tmp/wb-sites.txt -addr 127.0.0.1:8089 &
//	robotstat panel --out history/ --rate -1 --wayback-base http://127.0.0.1:8089/ /tmp/wb-sites.txt wayback:2016-01..2025-12
//
// The histories follow waybacktest.DefaultPopulation (a shape assumed, not
// measured: see its fields). It serves until interrupted, then prints the
// requests it answered.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"

	"github.com/robotstat/robotstat/wayback"
	"github.com/robotstat/robotstat/wayback/waybacktest"
)

func main() {
	sites := flag.Int("sites", 50, "sites in the archive")
	rng := flag.String("range", "wayback:2016-01..2025-12", "the months the histories span")
	list := flag.String("list", "", "write the site list here (required)")
	addr := flag.String("addr", "127.0.0.1:8089", "listen on `HOST:PORT`")
	https := flag.Float64("https", -1, "share of sites moving to https (default: DefaultPopulation's)")
	www := flag.Float64("www", -1, "share of sites redirecting to www. (default: DefaultPopulation's)")
	flag.Parse()
	r, err := wayback.ParseRange(*rng)
	if err != nil || *list == "" {
		fmt.Fprintln(os.Stderr, "usage: waybackstandin -list FILE [-sites N] [-range wayback:FROM..TO] [-addr 127.0.0.1:8089]", err)
		os.Exit(2)
	}
	p := waybacktest.DefaultPopulation(*sites, r)
	if *https >= 0 {
		p.HTTPS = *https
	}
	if *www >= 0 {
		p.WWW = *www
	}
	hosts, caps := p.Generate()
	if err := os.WriteFile(*list, []byte(strings.Join(hosts, "\n")+"\n"), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	srv := waybacktest.New()
	srv.Add(caps...)
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	hs := &http.Server{Handler: srv}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() { <-ctx.Done(); hs.Close() }()
	fmt.Fprintf(os.Stderr, "waybackstandin: %d sites, %d captures, serving http://%s/ (list in %s)\n", len(hosts), len(caps), *addr, *list)
	hs.Serve(l)
	fmt.Fprintf(os.Stderr, "waybackstandin: answered %d CDX queries and %d replays\n", srv.Requests("cdx"), srv.Requests("replay"))
}
