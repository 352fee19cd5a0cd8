package main

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTester(t *testing.T) {
	t.Parallel()
	robots := writeRobots(t, checkRobots)
	dir := t.TempDir()
	out := filepath.Join(dir, "tester.html")
	cases := []struct {
		name   string
		stdin  string
		args   []string
		stdout []string // substrings
		stderr []string
		code   int
		page   []string // substrings of the page written
	}{
		{name: "example_page", args: []string{"tester", "--out", out},
			stdout: []string{"file://" + filepath.ToSlash(out) + "\n"}, stderr: []string{"wrote " + out, "KB gzipped"},
			page: []string{`"agents":["GPTBot","Googlebot"]`, `"token":"GPTBot"`}},
		{name: "case_and_link", args: []string{"tester", "--out", out, robots, "GPTBot", "/x", "https://e.com/private/ok"},
			stdout: []string{"file://" + filepath.ToSlash(out) + "#robots=User-agent%3A%20GPTBot%0A", "&agent=GPTBot&url=%2Fx&url=https%3A%2F%2Fe.com%2Fprivate%2Fok\n"},
			page:   []string{`"agents":["GPTBot"],"urls":["/x","https://e.com/private/ok"],"status":200`}},
		{name: "base_and_status_flags_after_arguments", args: []string{"tester", robots, "x", "/", "--out", out, "--base", "https://example.org/tester.html", "--status", "404"},
			stdout: []string{"https://example.org/tester.html#robots=", "&status=404\n"}, page: []string{`"status":404`}},
		{name: "stdin_robots", stdin: "User-agent: *\nDisallow: /\n", args: []string{"tester", "--out", out, "-", "GPTBot/1.1", "/"},
			stdout: []string{"#robots=User-agent%3A%20%2A%0ADisallow%3A%20%2F%0A&agent=GPTBot%2F1.1&url=%2F"},
			stderr: []string{`agent "GPTBot/1.1" is read as the product token "GPTBot"`}},
		{name: "missing_out", args: []string{"tester"}, stderr: []string{"--out FILE is required", "Try: robotstat tester --help"}, code: 2},
		{name: "redirect_status", args: []string{"tester", "--out", out, "--status", "301"}, stderr: []string{"--status 301 is a redirect"}, code: 2},
		{name: "bad_base", args: []string{"tester", "--out", out, "--base", "tester.html#x"}, stderr: []string{"--base", "absolute URL"}, code: 2},
		{name: "missing_robots", args: []string{"tester", "--out", out, filepath.Join(dir, "absent.txt")}, stderr: []string{"reading robots.txt", "no such file"}, code: 2},
		{name: "unwritable_out", args: []string{"tester", "--out", filepath.Join(dir, "no", "dir", "x.html")}, stderr: []string{"tester:"}, code: 2},
		{name: "help", args: []string{"tester", "--help"}, stdout: []string{"Usage:", "--out", "#robots=", "Exit codes:"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			os.Remove(out)
			stdout, stderr, code := run(t, c.stdin, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, stdout, stderr)
			}
			for _, s := range c.stdout {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, stdout)
				}
			}
			for _, s := range c.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
			if c.code != 0 || len(c.page) == 0 {
				return
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range c.page {
				if !strings.Contains(string(b), s) {
					t.Errorf("page lacks %q", s)
				}
			}
		})
	}
	// Nothing but the page is left beside it.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "tester.html" && e.Name() != "no" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// TestTesterLinkReadsBack: the printed link's fragment is the case, read
// back with the query decoding the page uses.
func TestTesterLinkReadsBack(t *testing.T) {
	t.Parallel()
	body := "User-agent: *\nDisallow: /a b+c&d # x\n"
	robots := writeRobots(t, body)
	out := filepath.Join(t.TempDir(), "p.html")
	stdout, stderr, code := run(t, "", "tester", "--out", out, robots, "CCBot", "/a b+c&d", "/?q=1&r=2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	u, err := url.Parse(strings.TrimSpace(stdout))
	if err != nil {
		t.Fatal(err)
	}
	q, err := url.ParseQuery(u.EscapedFragment())
	if err != nil {
		t.Fatal(err)
	}
	if q.Get("robots") != body || strings.Join(q["agent"], "|") != "CCBot" || strings.Join(q["url"], "|") != "/a b+c&d|/?q=1&r=2" {
		t.Errorf("fragment reads back as %v", q)
	}
}
