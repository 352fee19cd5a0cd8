// Package scantest serves the faults of the real web on loopback, for the
// tests of package scan, of robotstat scan and of the independent WARC
// checker: one virtual-host HTTP server and one HTTPS server (with a
// certificate from a CA made for the run), routed by the Host header.
//
// Nothing here reaches past 127.0.0.1: Rules point every test host at the
// two servers, and a host without a rule is meant to fail its DNS lookup.
package scantest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"time"
)

// Case is one test host: what it serves and what a careful crawler makes of
// it (RFC 9309 section 2.3.1).
type Case struct {
	Host    string
	Outcome string // parsed, unavailable, unreachable, redirect
	// Error is the end record's fetchError, or "".
	Error string
	// Fetches is how many fetches the procedure makes.
	Fetches int
	// HTTPSFails: the https fetch fails and the scan falls back to http.
	HTTPSFails bool
}

// BigBody is the size of big.test's and bigchunked.test's bodies.
const BigBody = 5 << 20

// TinyChunksBody is the size of tinychunks.test's body, sent in chunks of
// one byte (the size issue 26 met: 796,454 bytes).
const TinyChunksBody = 796454

// Robots is the body ok.test serves.
const Robots = "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n"

// Cases lists every host the servers know, in the order tests scan them.
var Cases = []Case{
	{Host: "ok.test", Outcome: "parsed", Fetches: 1},
	{Host: "notfound.test", Outcome: "unavailable", Fetches: 1},
	{Host: "forbidden.test", Outcome: "unavailable", Fetches: 1},
	{Host: "gone.test", Outcome: "unavailable", Fetches: 1},
	{Host: "toomany.test", Outcome: "unavailable", Fetches: 1},
	{Host: "unavailable.test", Outcome: "unreachable", Fetches: 1},
	{Host: "relative.test", Outcome: "parsed", Fetches: 2}, // 301 Location: /robots-moved.txt
	{Host: "cross.test", Outcome: "parsed", Fetches: 2},    // 302 to https://ok.test/robots.txt
	{Host: "tohttp.test", Outcome: "parsed", Fetches: 2},   // 301 to http://tohttp.test/robots.txt, which serves
	{Host: "loop.test", Outcome: "unavailable", Error: "loop", Fetches: 2},
	{Host: "chain.test", Outcome: "unavailable", Error: "too-many-redirects", Fetches: 6},
	{Host: "five.test", Outcome: "parsed", Fetches: 6}, // exactly five redirects are followed
	{Host: "nolocation.test", Outcome: "redirect", Fetches: 1},
	{Host: "stall.test", Outcome: "unreachable", Error: "timeout", Fetches: 2, HTTPSFails: true},
	{Host: "stallbody.test", Outcome: "unreachable", Error: "timeout", Fetches: 2, HTTPSFails: true},
	{Host: "reset.test", Outcome: "unreachable", Error: "reset", Fetches: 2, HTTPSFails: true},
	{Host: "resetbody.test", Outcome: "unreachable", Error: "reset", Fetches: 2, HTTPSFails: true},
	{Host: "big.test", Outcome: "parsed", Fetches: 1},
	{Host: "bigchunked.test", Outcome: "parsed", Fetches: 1},
	{Host: "tinychunks.test", Outcome: "parsed", Fetches: 1},
	{Host: "html.test", Outcome: "parsed", Fetches: 1},
	{Host: "toloopback.test", Outcome: "unreachable", Error: "blocked", Fetches: 2}, // 302 to http://127.0.0.1:PORT/robots.txt
	{Host: "httponly.test", Outcome: "parsed", Fetches: 2, HTTPSFails: true},        // port 443 speaks plain HTTP
	{Host: "refused.test", Outcome: "unreachable", Error: "connect", Fetches: 2, HTTPSFails: true},
	{Host: "garbage.test", Outcome: "unreachable", Error: "protocol", Fetches: 2, HTTPSFails: true},
	{Host: "nxdomain.test", Outcome: "unreachable", Error: "dns", Fetches: 1},
}

// Servers are the running test servers.
type Servers struct {
	HTTP, HTTPS *httptest.Server
	// CAPEM is the PEM certificate of the CA that signed the HTTPS
	// server's certificate; CAPool holds it.
	CAPEM  []byte
	CAPool *x509.CertPool
	// Refused is a loopback port nothing listens on.
	Refused string
	// Garbage is a loopback server that answers anything with bytes that
	// are not HTTP.
	Garbage net.Listener
	stop    chan struct{}
}

// Close stops the servers.
func (s *Servers) Close() {
	close(s.stop)
	s.HTTP.CloseClientConnections()
	s.HTTPS.CloseClientConnections()
	s.HTTP.Close()
	s.HTTPS.Close()
	s.Garbage.Close()
}

// Start starts the servers.
func Start() (*Servers, error) {
	s := &Servers{stop: make(chan struct{})}
	s.HTTP = httptest.NewServer(http.HandlerFunc(s.serve))
	s.HTTPS = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	ca, cert, err := certificates()
	if err != nil {
		return nil, err
	}
	s.CAPEM = ca
	s.CAPool = x509.NewCertPool()
	s.CAPool.AppendCertsFromPEM(ca)
	s.HTTPS.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	s.HTTPS.StartTLS()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s.Refused = l.Addr().String()
	l.Close()
	if s.Garbage, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		return nil, err
	}
	go func() {
		for {
			c, err := s.Garbage.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("\x00\x01SSH-2.0-not-http\r\n\r\n"))
			c.Close()
		}
	}()
	return s, nil
}

// Rules returns --resolve rules for every case but nxdomain.test: port
// 443 to the HTTPS server, port 80 to the HTTP server, with the faults'
// exceptions.
func (s *Servers) Rules() []string {
	tlsAddr, plainAddr := s.HTTPS.Listener.Addr().String(), s.HTTP.Listener.Addr().String()
	var rules []string
	for _, c := range Cases {
		switch c.Host {
		case "nxdomain.test":
			continue
		case "httponly.test":
			rules = append(rules, c.Host+":443="+plainAddr, c.Host+":80="+plainAddr)
		case "refused.test":
			rules = append(rules, c.Host+"="+s.Refused)
		case "garbage.test":
			rules = append(rules, c.Host+"="+s.Garbage.Addr().String())
		default:
			rules = append(rules, c.Host+":443="+tlsAddr, c.Host+":80="+plainAddr)
		}
	}
	return rules
}

// StarRules points every host at the servers: "*:443" and "*:80".
func (s *Servers) StarRules() []string {
	return []string{"*:443=" + s.HTTPS.Listener.Addr().String(), "*:80=" + s.HTTP.Listener.Addr().String()}
}

func (s *Servers) serve(w http.ResponseWriter, r *http.Request) {
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		host = r.Host
	}
	https := r.TLS != nil
	text := func(status int, body string) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(status)
		w.Write([]byte(body))
	}
	redirect := func(status int, loc string) {
		w.Header().Set("Location", loc)
		w.WriteHeader(status)
	}
	switch host {
	case "ok.test", "httponly.test":
		text(200, Robots)
	case "notfound.test":
		text(404, "not found")
	case "forbidden.test":
		text(403, "forbidden")
	case "gone.test":
		text(410, "gone")
	case "toomany.test":
		text(429, "slow down")
	case "unavailable.test":
		text(503, "down for maintenance")
	case "relative.test":
		if r.URL.Path == "/robots.txt" {
			redirect(301, "/robots-moved.txt")
			return
		}
		text(200, "User-agent: *\nDisallow: /moved/\n")
	case "cross.test":
		redirect(302, "https://ok.test/robots.txt")
	case "tohttp.test":
		if https {
			redirect(301, "http://tohttp.test/robots.txt")
			return
		}
		text(200, "User-agent: *\nAllow: /\n")
	case "loop.test":
		if r.URL.Path == "/robots.txt" {
			redirect(302, "/a")
			return
		}
		redirect(302, "https://loop.test/robots.txt")
	case "chain.test", "five.test":
		n := 0
		if p := strings.TrimPrefix(r.URL.Path, "/r"); p != r.URL.Path {
			n, _ = strconv.Atoi(p)
		}
		if host == "five.test" && n == 5 {
			text(200, "User-agent: *\nDisallow: /five/\n")
			return
		}
		redirect(301, "/r"+strconv.Itoa(n+1))
	case "nolocation.test":
		w.WriteHeader(302)
	case "stall.test":
		select {
		case <-r.Context().Done():
		case <-s.stop:
		}
	case "stallbody.test":
		w.Header().Set("Content-Length", "100000")
		w.WriteHeader(200)
		w.Write([]byte("User-agent: *\n"))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-s.stop:
		}
	case "reset.test", "resetbody.test":
		c, bw, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		if host == "resetbody.test" {
			bw.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\nUser-agent: *\nDisallow: /a\n")
			bw.Flush()
			time.Sleep(20 * time.Millisecond)
		}
		abort(c)
	case "big.test":
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Length", strconv.Itoa(BigBody))
		w.Write(bigBody())
	case "bigchunked.test":
		w.Header().Set("Content-Type", "text/plain")
		b := bigBody()
		for len(b) > 0 { // no Content-Length: chunked
			n := min(len(b), 64<<10)
			w.Write(b[:n])
			b = b[n:]
		}
	case "tinychunks.test":
		// TinyChunksBody bytes in 1-byte chunks, written raw: a server
		// that flushes every byte.
		c, bw, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer c.Close()
		bw.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
		for _, b := range bigBody()[:TinyChunksBody] {
			bw.WriteString("1\r\n")
			bw.WriteByte(b)
			bw.WriteString("\r\n")
		}
		bw.WriteString("0\r\n\r\n")
		bw.Flush()
	case "toloopback.test":
		// A redirect into the scanning machine: its own loopback
		// address, which no --resolve rule maps.
		redirect(302, "http://"+s.HTTP.Listener.Addr().String()+"/robots.txt")
	case "html.test":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<!DOCTYPE html>\n<html><head><title>Welcome</title></head><body><p>Not a robots.txt</p></body></html>\n"))
	default:
		text(404, "no such test host: "+host)
	}
}

// abort closes c with a TCP reset (SO_LINGER 0).
func abort(c net.Conn) {
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	c.Close()
}

// bigBody is BigBody bytes of robots.txt lines.
func bigBody() []byte {
	line := []byte("User-agent: *\nDisallow: /a-very-long-path-to-fill-the-file/\n")
	return bytes.Repeat(line, BigBody/len(line)+1)[:BigBody]
}

// certificates makes a CA and a certificate it signs for every case's
// host.
func certificates() (caPEM []byte, leaf tls.Certificate, err error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, leaf, err
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "robotstat scantest CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, leaf, err
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, leaf, err
	}
	names := []string{"localhost"}
	for _, c := range Cases {
		names = append(names, c.Host)
	}
	for i := range 100 {
		names = append(names, fmt.Sprintf("h%d.test", i))
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "scantest"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		DNSNames: names, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		return nil, leaf, err
	}
	caPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})
	leaf = tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
	return caPEM, leaf, nil
}
