package scan

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Failure kinds (the fetchError field) and the fetchStatus each gets in the
// captures table (see the package doc).
const (
	KindDNS              = "dns"
	KindConnect          = "connect"
	KindTLS              = "tls"
	KindTimeout          = "timeout"
	KindReset            = "reset"
	KindProtocol         = "protocol"
	KindTooManyRedirects = "too-many-redirects"
	KindLoop             = "loop"
	// KindBlocked: the address is loopback, private, link-local or
	// otherwise not of the public internet, and was not fetched
	// (Config.AllowPrivate; see blockedAddr).
	KindBlocked = "blocked"
)

// Kinds lists the failure kinds in the order summaries print them.
var Kinds = [...]string{KindDNS, KindConnect, KindTLS, KindTimeout, KindReset, KindProtocol, KindTooManyRedirects, KindLoop, KindBlocked}

// fetchStatus is the captures-table status of a fetch that failed with
// kind: Heritrix's crawl-log codes where there is one.
func fetchStatus(kind string) int {
	switch kind {
	case KindDNS:
		return -1
	case KindConnect:
		return -2
	case KindReset:
		return -3
	case KindTimeout:
		return -4
	case KindTLS:
		return -10
	case KindBlocked:
		return -5001 // Heritrix's S_BLOCKED_BY_USER: blocked from fetch by a setting
	}
	return -11 // protocol
}

// maxHeader bounds a response header: a server that sends more gets a
// protocol failure instead of filling memory.
const maxHeader = 256 << 10

// maxChunking bounds the chunked framing kept with a payload of BodyLimit
// bytes: 1-byte chunks take 6 bytes each, and 8 leaves room for short
// chunk extensions; more framing than that cuts the stored body early
// (WARC-Truncated: length).
const maxChunking = 8

// keepBuffer is the largest response buffer a worker keeps from one fetch
// to the next: most robots.txt are a few KiB, and 256 workers each keeping
// the 500 KiB of the largest they had met would hold 128 MiB.
const keepBuffer = 64 << 10

// Address ranges that are not of the public internet besides those that
// net/netip names (loopback, private, link-local, multicast, unspecified):
// IANA's special-purpose registries (RFC 6890).
var blockedPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network" (RFC 791)
	netip.MustParsePrefix("100.64.0.0/10"),   // shared address space, carrier-grade NAT (RFC 6598)
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments (RFC 6890)
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking (RFC 2544)
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, and the broadcast address (RFC 1112)
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use IPv4/IPv6 translation (RFC 8215)
	netip.MustParsePrefix("2001:db8::/32"),   // documentation (RFC 3849)
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation (RFC 5737)
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
}

// blockedAddr says why ip is not an address of the public internet, or ""
// when it is. An IPv4 address mapped into IPv6 (::ffff:127.0.0.1) or
// embedded in NAT64's well-known prefix (64:ff9b::/96, RFC 6052) is judged
// as the IPv4 address it carries.
func blockedAddr(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return "not an IP address"
	}
	a = a.Unmap()
	if a.Is6() {
		if b := a.As16(); netip.MustParsePrefix("64:ff9b::/96").Contains(a) {
			a = netip.AddrFrom4([4]byte(b[12:]))
		}
	}
	switch {
	case a.IsLoopback():
		return "a loopback address"
	case a.IsPrivate():
		return "a private address"
	case a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast():
		return "a link-local address"
	case a.IsUnspecified():
		return "the unspecified address"
	case a.IsMulticast(), a.IsInterfaceLocalMulticast():
		return "a multicast address"
	}
	for _, p := range blockedPrefixes {
		if p.Contains(a) {
			return "a special-purpose address (" + p.String() + ")"
		}
	}
	return ""
}

// failure is why a fetch got no usable response.
type failure struct {
	kind   string
	detail string
}

// fetched is the outcome of one fetch. Its buffers are reused by the next
// fetch of the same worker.
type fetched struct {
	url      string
	date     time.Time
	ip       string
	elapsed  time.Duration
	request  []byte // the bytes sent; nil when the request did not go out
	response []byte // header and body as stored; nil without a usable response

	headerLen     int
	status        int
	location      string
	chunked       bool
	truncated     bool  // the stored body was cut at BodyLimit
	payloadLen    int64 // decoded payload length, counted up to CountLimit
	payloadCapped bool  // counting stopped before the body's end

	fail     *failure
	received int64 // decoded body bytes received before a failure mid-body

	reqBuf []byte
	rec    recorder
	br     *bufio.Reader
}

// fetcher performs single fetches. It is safe for concurrent use.
type fetcher struct {
	cfg    *Config
	dialer net.Dialer
	tls    *tls.Config
}

func newFetcher(cfg *Config) *fetcher {
	return &fetcher{
		cfg:    cfg,
		dialer: net.Dialer{KeepAlive: -1},
		tls:    &tls.Config{RootCAs: cfg.RootCAs, NextProtos: []string{"http/1.1"}},
	}
}

func (f *fetcher) now() time.Time {
	if f.cfg.now != nil {
		return f.cfg.now()
	}
	return time.Now()
}

// fetch GETs u into r. It returns an error only when ctx was cancelled;
// every other problem is r.fail.
func (f *fetcher) fetch(ctx context.Context, u *url.URL, r *fetched) error {
	buf := r.rec.buf[:0]
	if cap(buf) > keepBuffer {
		buf = nil // a rare large body gets its own buffer, dropped after use
	}
	*r = fetched{reqBuf: r.reqBuf[:0], rec: recorder{buf: buf}, br: r.br}
	r.url = u.String()
	r.date = f.now()
	start := time.Now()
	defer func() { r.elapsed = time.Since(start) }()
	t := f.cfg.Timeouts
	tctx, cancel := context.WithTimeout(ctx, t.Total)
	defer cancel()
	fail := func(kind, phase string, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if isTimeout(err) {
			kind = KindTimeout
		}
		r.fail = &failure{kind: kind, detail: capString(phase+": "+err.Error(), 300)}
		r.response = nil
		return nil
	}

	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	addr, ok := f.cfg.Resolve.lookup(host, port)
	if !ok {
		ip := host
		if net.ParseIP(host) == nil {
			lookup := f.cfg.lookup
			if lookup == nil {
				lookup = net.DefaultResolver.LookupHost
			}
			ips, err := lookup(tctx, host)
			if err == nil && len(ips) == 0 {
				err = errors.New("no address")
			}
			if err != nil {
				return fail(KindDNS, "dns", err)
			}
			ip = ips[0]
		}
		// The user's --resolve rules point where the user chose; an
		// address from the DNS, a host list or a redirect must be of
		// the public internet, or a scan would reach into the network
		// it runs in (a robots.txt redirected to 127.0.0.1 or to a
		// cloud's metadata address, 169.254.169.254).
		if why := blockedAddr(ip); why != "" && !f.cfg.AllowPrivate {
			return fail(KindBlocked, "address", errors.New(ip+" is "+why+": not fetched (AllowPrivate, --allow-private, fetches it; --resolve maps a host to it)"))
		}
		addr = net.JoinHostPort(ip, port)
	}
	dctx, dcancel := context.WithTimeout(tctx, t.Connect)
	conn, err := f.dialer.DialContext(dctx, "tcp", addr)
	dcancel()
	if err != nil {
		return fail(KindConnect, "connect", err)
	}
	defer conn.Close()
	if a, ok := conn.RemoteAddr().(*net.TCPAddr); ok {
		r.ip = a.IP.String()
	}
	deadline, _ := tctx.Deadline()
	conn.SetDeadline(deadline)
	if u.Scheme == "https" {
		conf := f.tls.Clone()
		conf.ServerName = host
		tc := tls.Client(conn, conf)
		hctx, hcancel := context.WithTimeout(tctx, t.TLS)
		err := tc.HandshakeContext(hctx)
		hcancel()
		if err != nil {
			return fail(KindTLS, "tls", err)
		}
		conn = tc
	}

	r.reqBuf = f.appendRequest(r.reqBuf, u)
	if _, err := conn.Write(r.reqBuf); err != nil {
		return fail(KindReset, "sending the request", err)
	}
	r.request = r.reqBuf

	rec := &r.rec
	rec.r, rec.max = conn, maxHeader
	if r.br == nil {
		r.br = bufio.NewReaderSize(rec, 16<<10)
	} else {
		r.br.Reset(rec)
	}
	conn.SetReadDeadline(earliest(deadline, time.Now().Add(t.Header)))
	var resp *http.Response
	for {
		resp, err = http.ReadResponse(r.br, &http.Request{Method: http.MethodGet})
		if err != nil {
			if rec.err != nil && isTimeout(rec.err) {
				// The header came too slowly: net/http parses the part
				// that came before the deadline and calls it malformed
				// ("HTTP/1.1" of a status line cut short).
				return fail(KindTimeout, "reading the response header", errors.New("no whole header within "+t.Header.String()+" ("+strconv.FormatInt(rec.n, 10)+" bytes came): "+rec.err.Error()))
			}
			kind := KindProtocol
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || isReset(err) {
				kind = KindReset
			}
			return fail(kind, "reading the response header", err)
		}
		if resp.StatusCode >= 200 || resp.StatusCode == http.StatusSwitchingProtocols {
			break
		}
		rec.drop(int(rec.n) - r.br.Buffered()) // an interim 1xx: not stored
	}
	r.headerLen = int(rec.n) - r.br.Buffered() - rec.dropped
	rec.max = 0
	conn.SetReadDeadline(deadline)
	r.status = resp.StatusCode
	r.location = resp.Header.Get("Location")
	r.chunked = len(resp.TransferEncoding) > 0 && resp.TransferEncoding[0] == "chunked"
	rec.keep = r.headerLen + int(f.cfg.BodyLimit) + 1 // one more says the body went on
	if r.chunked {
		// BodyLimit is of payload, not of chunked framing: 1-byte chunks
		// take 6 bytes each ("1\r\nx\r\n"), and kept to BodyLimit bytes
		// as received they held 85 KB of a 500 KiB body. The framing is
		// kept up to maxChunking times the payload; the stored bytes are
		// cut where the payload reached BodyLimit.
		rec.keep = r.headerLen + maxChunking*int(f.cfg.BodyLimit)
	}

	n, err := io.CopyN(io.Discard, resp.Body, f.cfg.BodyLimit)
	cut := -1 // where the stored bytes end, when the body went on
	if err == io.EOF {
		err = nil // shorter than BodyLimit
	} else if err == nil {
		if r.chunked {
			cut = int(rec.n) - r.br.Buffered() - rec.dropped
			rec.keep = 1 // keep no more
		}
		var m int64
		m, err = io.Copy(io.Discard, io.LimitReader(resp.Body, f.cfg.CountLimit+1-n))
		n += m
	}
	if err != nil && n < f.cfg.BodyLimit {
		// Cut off before the least a crawler must read (RFC 9309
		// section 2.5): no robots.txt was received.
		r.received = n
		kind := KindReset
		if isTimeout(err) {
			kind = KindTimeout
		}
		return fail(kind, "reading the body (HTTP "+strconv.Itoa(r.status)+", "+strconv.FormatInt(n, 10)+" bytes in)", err)
	}
	r.payloadLen = n
	if err != nil || n > f.cfg.CountLimit {
		r.payloadCapped = true
		r.payloadLen = min(n, f.cfg.CountLimit)
	}
	block := rec.buf
	switch {
	case !r.chunked && len(block) > r.headerLen+int(f.cfg.BodyLimit):
		block = block[:r.headerLen+int(f.cfg.BodyLimit)]
		r.truncated = true
	case r.chunked && cut >= 0 && n > f.cfg.BodyLimit:
		block = block[:min(cut, len(block))]
		r.truncated = true
	case r.chunked && int(rec.n)-rec.dropped > len(block):
		r.truncated = true // framing over maxChunking times the payload
	}
	r.response = block
	return nil
}

// appendRequest appends the request sent for u: HTTP/1.1, one request per
// connection, no content coding (the archive then holds the body as the
// server has it, and its digest is the file's).
func (f *fetcher) appendRequest(b []byte, u *url.URL) []byte {
	host := u.Host
	if p := u.Port(); (p == "443" && u.Scheme == "https") || (p == "80" && u.Scheme == "http") {
		host = strings.TrimSuffix(host, ":"+p)
	}
	b = append(b, "GET "...)
	b = append(b, u.RequestURI()...)
	b = append(b, " HTTP/1.1\r\nHost: "...)
	b = append(b, host...)
	b = append(b, "\r\nUser-Agent: "...)
	b = append(b, f.cfg.UserAgent...)
	b = append(b, "\r\nAccept: text/plain, */*;q=0.1\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n"...)
	return b
}

// payload returns the stored response's payload: the body with chunked
// framing removed (the payload of WARC-Payload-Digest, ISO 28500 section
// 5.9), using scratch.
func (r *fetched) payload(scratch *[]byte) []byte {
	body := r.response[r.headerLen:]
	if !r.chunked {
		return body
	}
	buf := bytes.NewBuffer((*scratch)[:0])
	io.Copy(buf, httputil.NewChunkedReader(bytes.NewReader(body))) // a cut body decodes as far as it goes
	*scratch = buf.Bytes()
	return *scratch
}

// recorder keeps the bytes read through it, up to keep once keep is set,
// and refuses to read past max while max is set (the header's bound).
type recorder struct {
	r       io.Reader
	buf     []byte
	keep    int
	max     int64
	n       int64 // bytes read in all
	dropped int   // bytes dropped from the front (interim responses)
	err     error // the last read error, for telling a timeout from a malformed header
}

var errHeaderTooLong = errors.New("response header over 256 KiB")

func (t *recorder) Read(p []byte) (int, error) {
	if t.max > 0 {
		if t.n >= t.max {
			return 0, errHeaderTooLong
		}
		if int64(len(p)) > t.max-t.n {
			p = p[:t.max-t.n]
		}
	}
	n, err := t.r.Read(p)
	t.n += int64(n)
	if err != nil {
		t.err = err
	}
	if t.keep == 0 {
		t.buf = append(t.buf, p[:n]...)
	} else if room := t.keep - len(t.buf); room > 0 {
		t.buf = append(t.buf, p[:min(n, room)]...)
	}
	return n, err
}

// drop forgets the first n bytes read (counted from the last drop).
func (t *recorder) drop(n int) {
	n -= t.dropped
	t.buf = append(t.buf[:0], t.buf[n:]...)
	t.dropped += n
}

func earliest(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) ||
		(errors.As(err, &ne) && ne.Timeout())
}

func isReset(err error) bool {
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNABORTED)
}
