package verify

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/schema"
)

// TestDuckDBReadsBadBytes: DuckDB reads every table robotstat analyze
// writes from input whose folder name, warcinfo isPartOf, Location,
// Content-Type, target URI and robots.txt lines hold bytes that are not
// UTF-8 (issue 26.5: one such byte made a table unreadable, "Invalid string
// encoding", and the crawl a partition DuckDB could not decode).
func TestDuckDBReadsBadBytes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "in\xff\xfedir")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Skip("the file system refuses a name that is not UTF-8:", err)
	}
	rec := func(typ, uri, block, extra string) string {
		h := "WARC/1.1\r\nWARC-Type: " + typ + "\r\n"
		if uri != "" {
			h += "WARC-Target-URI: " + uri + "\r\n"
		}
		h += "WARC-Date: 2024-05-18T10:11:12Z\r\n" + extra
		if typ == "response" {
			h += "Content-Type: application/http; msgtype=response\r\n"
		}
		return h + fmt.Sprintf("Content-Length: %d\r\n\r\n", len(block)) + block + "\r\n\r\n"
	}
	body := "User-agent: Bot\xff\xfe\nDisallow: /caf\xe9/\nSitemap: https://a.example/s\xffitemap.xml\nX-\xffkey: v\xff\n\nUser-agent: *\nDisallow: /\n"
	warc := rec("warcinfo", "", "isPartOf: CC-MAIN-\xff\xfe\r\n", "Content-Type: application/warc-fields\r\n") +
		rec("response", "https://a.example/robots.txt", "HTTP/1.1 200 OK\r\nContent-Type: text/pl\xffain\r\n\r\n"+body, "WARC-Identified-Payload-Type: text/\xff\r\n") +
		rec("response", "https://b.example/robots.txt", "HTTP/1.1 302 Fo\xffund\r\nLocation: https://c.example/r\xffobots.txt\r\n\r\n", "") +
		rec("response", "https://bad\xff\xfe.example.com/robots.txt", "HTTP/1.1 200 OK\r\n\r\nUser-agent: *\nDisallow: /\n", "")
	if err := os.WriteFile(filepath.Join(dir, "x.warc"), []byte(warc), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command("go", "run", "./cmd/robotstat", "analyze", "--quiet", "--tables", "all", "--out", out, dir)
	cmd.Dir = filepath.Join("..", "..")
	// Exit 3: output written, the isPartOf counted as an input error
	// (go run says "exit status 1" and prints the program's own).
	if b, err := cmd.CombinedOutput(); err != nil && !strings.HasSuffix(strings.TrimSpace(string(b)), "exit status 3") {
		t.Fatalf("analyze: %v\n%s", err, b)
	}
	for _, table := range schema.AllTables() {
		if _, err := os.Stat(filepath.Join(out, string(table))); err != nil {
			continue // not written for this input
		}
		rows := query(t, "SELECT COLUMNS(*)::VARCHAR FROM "+glob(out, string(table)))
		if len(rows) == 0 && table != schema.Errors && table != schema.Signals {
			t.Errorf("%s: no rows", table)
		}
	}
	got := query(t, "SELECT DISTINCT crawl FROM "+glob(out, "captures")+" WHERE crawl IS NOT NULL")
	if len(got) != 1 || got[0][0] != "CC-MAIN-%FF%FE" {
		t.Errorf("crawls %v, want CC-MAIN-%%FF%%FE", got)
	}
	got = query(t, "SELECT redirect_target FROM "+glob(out, "captures")+" WHERE redirect_target IS NOT NULL")
	if len(got) != 1 || got[0][0] != "https://c.example/r%FFobots.txt" {
		t.Errorf("redirect targets %v", got)
	}
	got = query(t, "SELECT count(*) FROM "+glob(out, "captures")+" WHERE host LIKE 'xn--%'")
	if got[0][0] != "0" {
		t.Errorf("%s captures with an invented IDNA host", got[0][0])
	}
}
