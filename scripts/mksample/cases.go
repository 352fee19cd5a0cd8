package main

import (
	"fmt"
	"strings"
)

// sampleCase is one made-up capture. The hosts are under .example, a TLD
// reserved for documentation (RFC 2606), so no real site is described.
type sampleCase struct {
	url         string
	status      int
	reason      string
	contentType string
	location    string
	body        string
	// crawlerEncoding is set when Common Crawl would have fetched the body
	// gzip-encoded: it stores it decoded and renames the header.
	crawlerEncoding string
}

// cases are the situations the sample shows, one host each.
var cases = []sampleCase{
	{
		// Stacked user-agent lines: one group for seven AI crawlers. Studies
		// whose parsers keep only the last line of a stack miss six of them.
		url: "https://news-stacked.example/robots.txt", status: 200, contentType: "text/plain",
		body: "# AI crawlers are not welcome\n" +
			"User-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: CCBot\nUser-agent: Google-Extended\n" +
			"User-agent: anthropic-ai\nUser-agent: Bytespider\nUser-agent: PerplexityBot\nDisallow: /\n\n" +
			"User-agent: *\nDisallow: /search\nAllow: /\n\nSitemap: https://news-stacked.example/sitemap.xml\n",
		crawlerEncoding: "gzip",
	},
	{
		// Cloudflare's managed robots.txt: Content Signals Policy for
		// everyone, then the AI crawler block, one single-agent group each.
		url: "https://managed-cdn.example/robots.txt", status: 200, contentType: "text/plain; charset=utf-8",
		body: "# As a condition of accessing this website, you agree to abide by the following\n" +
			"# content signals: search=yes means building a search index is allowed,\n" +
			"# ai-train=no means training AI models is not.\n\n" +
			"# BEGIN Cloudflare Managed content\n\n" +
			"User-Agent: *\nContent-signal: search=yes,ai-train=no\nAllow: /\n\n" +
			"User-agent: Amazonbot\nDisallow: /\n\nUser-agent: Applebot-Extended\nDisallow: /\n\n" +
			"User-agent: Bytespider\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /\n\n" +
			"User-agent: ClaudeBot\nDisallow: /\n\nUser-agent: Google-Extended\nDisallow: /\n\n" +
			"User-agent: GPTBot\nDisallow: /\n\nUser-agent: meta-externalagent\nDisallow: /\n\n" +
			"# END Cloudflare Managed Content\n",
	},
	{
		url: "https://blog-wp.example/robots.txt", status: 200, contentType: "text/plain; charset=utf-8",
		body: "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\nSitemap: https://blog-wp.example/wp-sitemap.xml\n",
	},
	{
		url: "https://shop-front.example/robots.txt", status: 200, contentType: "text/plain",
		body: "# we use Shopify as our ecommerce platform\n\nUser-agent: *\nDisallow: /admin\nDisallow: /cart\nDisallow: /orders\n" +
			"Disallow: /checkouts/\nDisallow: /checkout\nDisallow: /carts\nDisallow: /account\nDisallow: /collections/*sort_by*\n" +
			"Disallow: /*preview_theme_id*\nDisallow: /policies/\n\nSitemap: https://shop-front.example/sitemap.xml\n",
		crawlerEncoding: "gzip",
	},
	{
		// GPTBot named in two groups: RFC 9309 merges them.
		url: "https://split-groups.example/robots.txt", status: 200, contentType: "text/plain",
		body: "User-agent: GPTBot\nDisallow: /articles/\n\nUser-agent: *\nDisallow: /tmp/\n\nUser-agent: GPTBot\nDisallow: /archive/\nAllow: /archive/public/\n",
	},
	{
		// Wildcards and an end anchor, so some paths are open and some not.
		url: "https://wildcards.example/robots.txt", status: 200, contentType: "text/plain",
		body: "User-agent: *\nDisallow: /*?\nDisallow: /*.pdf$\nAllow: /\n\nUser-agent: ClaudeBot\nDisallow: /*\nAllow: /$\n",
	},
	{
		// Yandex-style extensions: Host, Clean-param, Crawl-delay.
		url: "https://ru-extensions.example/robots.txt", status: 200, contentType: "text/plain",
		body: "User-agent: Yandex\nCrawl-delay: 2\nClean-param: utm_source&utm_medium /\nDisallow: /search\n\nUser-agent: *\nDisallow: /search\nHost: ru-extensions.example\n",
	},
	{
		// Misspellings and a missing colon, which Google accepts (and so does
		// robotstat, flagged).
		url: "https://typos.example/robots.txt", status: 200, contentType: "text/plain",
		body: "User agent: GPTBot\nDissallow: /\n\nUseragent: *\nDisallow /private\nDisallowed: /ignored-not-a-rule\n",
	},
	{
		// A UTF-8 byte order mark, and CRLF line ends.
		url: "https://bom-crlf.example/robots.txt", status: 200, contentType: "text/plain",
		body: "\ufeffUser-agent: CCBot\r\nDisallow: /\r\n\r\nUser-agent: *\r\nDisallow:\r\n",
	},
	{
		// Old Mac line ends: a lone CR ends each line.
		url: "https://classic-mac.example/robots.txt", status: 200, contentType: "text/plain",
		body: "User-agent: *\rDisallow: /cgi-bin/\rDisallow: /private/\r\rUser-agent: Google-Extended\rDisallow: /\r",
	},
	{
		// A site that answers every path with its home page.
		url: "https://spa-html.example/robots.txt", status: 200, contentType: "text/html; charset=utf-8",
		body: "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>Welcome</title></head>\n" +
			"<body><div id=\"app\">Loading…</div><script src=\"/app.js\"></script></body>\n</html>\n",
	},
	{
		url: "https://empty-file.example/robots.txt", status: 200, contentType: "text/plain",
		body: "",
	},
	{
		url: "https://missing.example/robots.txt", status: 404, reason: "Not Found", contentType: "text/html",
		body: "<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>\n",
	},
	{
		url: "https://members-only.example/robots.txt", status: 403, reason: "Forbidden", contentType: "text/html",
		body: "<html><body>Forbidden</body></html>\n",
	},
	{
		url: "https://busy-server.example/robots.txt", status: 503, reason: "Service Unavailable", contentType: "text/html",
		body: "<html><body>Service temporarily unavailable</body></html>\n",
	},
	{
		url: "https://rate-limited.example/robots.txt", status: 429, reason: "Too Many Requests", contentType: "text/plain",
		body: "slow down\n",
	},
	{
		// A redirect to the www host, whose robots.txt is the next capture.
		url: "https://moved.example/robots.txt", status: 301, reason: "Moved Permanently", contentType: "text/html",
		location: "https://www.moved.example/robots.txt", body: "<a href=\"https://www.moved.example/robots.txt\">moved</a>\n",
	},
	{
		url: "https://www.moved.example/robots.txt", status: 200, contentType: "text/plain",
		body: "User-agent: GPTBot\nUser-agent: ChatGPT-User\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
	},
	{
		// Over the 500 KiB parse limit (RFC 9309 §2.5): the GPTBot group at
		// the end lies beyond it and does not count.
		url: "https://huge-file.example/robots.txt", status: 200, contentType: "text/plain",
		body: hugeBody(),
	},
}

// hugeBody is a 600 KB robots.txt whose last group lies past 500 KiB.
func hugeBody() string {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; b.Len() < 600_000; i++ {
		fmt.Fprintf(&b, "Disallow: /catalogue/item-%06d/\n", i)
	}
	b.WriteString("\nUser-agent: GPTBot\nDisallow: /\n")
	return b.String()
}

// httpResponse renders a case as the HTTP block Common Crawl stores: the
// payload decoded, the original coding and length renamed to X-Crawler-*.
func httpResponse(c sampleCase) []byte {
	reason := c.reason
	if reason == "" {
		reason = "OK"
	}
	var h strings.Builder
	fmt.Fprintf(&h, "HTTP/1.1 %d %s\r\n", c.status, reason)
	h.WriteString("Date: Mon, 02 Nov 2026 03:04:05 GMT\r\nServer: nginx\r\n")
	if c.contentType != "" {
		h.WriteString("Content-Type: " + c.contentType + "\r\n")
	}
	if c.location != "" {
		h.WriteString("Location: " + c.location + "\r\n")
	}
	if c.crawlerEncoding != "" {
		h.WriteString("X-Crawler-Content-Encoding: " + c.crawlerEncoding + "\r\n")
		fmt.Fprintf(&h, "X-Crawler-Content-Length: %d\r\n", len(c.body)/3)
	}
	fmt.Fprintf(&h, "Content-Length: %d\r\n\r\n", len(c.body))
	return []byte(h.String() + c.body)
}
