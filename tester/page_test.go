package tester

import (
	"bytes"
	"encoding/base64"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/internal/shotcheck"
)

func page(t *testing.T, p *Page) string {
	t.Helper()
	var b bytes.Buffer
	if err := WritePage(&b, p); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestPageSelfContained: the page holds the module, the loader and its own
// script and style, and refers to nothing outside itself (no src, no link,
// no fetch, no font), so it opens offline from a file.
func TestPageSelfContained(t *testing.T) {
	s := page(t, &Page{Version: "9.9.9", Catalog: "2026.12.1", Bots: aiBots()})
	for _, want := range []string{
		`<meta name="viewport" content="width=device-width, initial-scale=1">`,
		`<meta name="generator" content="robotstat 9.9.9">`,
		`id="rs-wasm">` + base64.StdEncoding.EncodeToString(wasmGz) + `</script>`,
		wasmExecJS, pageJS, pageCSS,
		`"token":"GPTBot"`, `<html lang="en">`, `<label for="robots">`, `<label for="agents">`, `<label for="urls">`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %.80q", want)
		}
	}
	for _, re := range []string{`(?i)<script[^>]+src=`, `(?i)<link\b`, `(?i)<img\b`, `(?i)@import`, `(?i)url\(`, `(?i)@font-face`, `\bfetch\(`, `(?i)<iframe`} {
		if m := regexp.MustCompile(re).FindString(s); m != "" {
			t.Errorf("page refers outside itself: %q", m)
		}
	}
	if n := len(s); n > 2_000_000 {
		t.Errorf("page is %d bytes", n)
	}
}

// TestPageCaseIsEscaped: a case is data in a JSON script element; markup in
// it cannot end the element.
func TestPageCaseIsEscaped(t *testing.T) {
	s := page(t, &Page{Case: Case{Robots: "</script><script>alert(1)</script>", Agents: []string{"<b>"}, URLs: []string{"/&"}}})
	if strings.Contains(s, "alert(1)</script>") || strings.Contains(s, `"<b>"`) {
		t.Errorf("case not escaped")
	}
	if !strings.Contains(s, `\u003c/script\u003e\u003cscript\u003ealert(1)`) {
		t.Errorf("case missing")
	}
}

func TestPageExampleByDefault(t *testing.T) {
	s := page(t, &Page{})
	if !strings.Contains(s, `"agents":["GPTBot","Googlebot"]`) || !strings.Contains(s, `"status":200`) {
		t.Errorf("no example case")
	}
}

// TestFragment: a link's fragment reads back as the case with the query
// decoding the page's script uses (URLSearchParams, which Go's ParseQuery
// follows: "+" and %20 are spaces), whatever the case holds.
func TestFragment(t *testing.T) {
	cases := []Case{
		example,
		{Robots: "User-agent: *\nDisallow: /a+b c&d=e#f%20\n", Agents: []string{"GPTBot", "CCBot/2.0 (+https://x)"}, URLs: []string{"/a b?x=1&y=2", "https://e.com/ツ#frag"}, Status: 404},
		{Robots: "", Agents: []string{}, URLs: []string{}},
	}
	for _, c := range cases {
		f := Fragment(c)
		if strings.ContainsAny(f, " #+\n") {
			t.Errorf("fragment %q holds a character a link cannot", f)
		}
		q, err := url.ParseQuery(f)
		if err != nil {
			t.Fatal(err)
		}
		got := Case{Robots: q.Get("robots"), Agents: q["agent"], URLs: q["url"], Status: c.Status}
		if got.Agents == nil {
			got.Agents = []string{}
		}
		if got.URLs == nil {
			got.URLs = []string{}
		}
		want := c
		if len(want.Agents) == 0 {
			want.Agents = []string{}
		}
		if len(want.URLs) == 0 {
			want.URLs = []string{}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("fragment %q reads back as %+v, want %+v", f, got, want)
		}
		if (c.Status == 404) != strings.Contains(f, "&status=404") {
			t.Errorf("fragment %q: status", f)
		}
	}
	if got := Fragment(Case{Robots: "a b", Agents: []string{"x"}}); got != "robots=a%20b&agent=x" {
		t.Errorf("Fragment = %q", got)
	}
}

// TestWritePageFile: the page replaces the file whole, keeping its
// permission bits as cp would (internal/outfile), and nothing else is left
// in its directory.
func TestWritePageFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tester.html")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WritePageFile(path, &Page{Version: "1"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(b, []byte("<!DOCTYPE html>")) || !bytes.HasSuffix(b, []byte("</html>\n")) {
		t.Fatalf("page: %v %.40q", err, b)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the replaced file's 0600", st.Mode())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries", len(entries))
	}
	if err := WritePageFile(filepath.Join(dir, "no", "such", "dir.html"), &Page{}); err == nil {
		t.Errorf("no error for a missing directory")
	}
}

func TestWasmSize(t *testing.T) {
	raw, gz := WasmSize()
	if raw < 1_000_000 || gz != len(wasmGz) || gz > 1_500_000 {
		t.Errorf("module %d bytes, %d gzipped", raw, gz)
	}
}

// TestTesterScreenshots checks the PNGs scripts/tester-check.sh took of the
// page in headless Chromium, and is skipped unless ROBOTSTAT_TESTER_SHOTS
// names their folder. It cannot judge looks (a person does: the script
// prints where the PNGs are), but it fails when the browser drew a blank or
// an error page, or the decisions did not render: the allowed and
// disallowed badges' colours must be there at both widths.
func TestTesterScreenshots(t *testing.T) {
	dir := os.Getenv("ROBOTSTAT_TESTER_SHOTS")
	if dir == "" {
		t.Skip("set ROBOTSTAT_TESTER_SHOTS=DIR (scripts/tester-check.sh does)")
	}
	colours := []shotcheck.Colour{
		{Name: "disallowed", R: 0xb3, G: 0x26, B: 0x1e, Min: 1500},
		{Name: "allowed", R: 0x1a, G: 0x7f, B: 0x37, Min: 300},
		{Name: "accent (Test button, chosen agent)", R: 0x1d, G: 0x4e, B: 0x89, Min: 1000},
		{Name: "text", R: 0x1f, G: 0x23, B: 0x28, Min: 2000},
	}
	for _, name := range []string{"desktop-full.png", "narrow-full.png"} {
		t.Run(name, func(t *testing.T) {
			shotcheck.Check(t, filepath.Join(dir, name), colours)
		})
	}
}

// TestLink: the page's URL is base when given, else the file's absolute
// file:// URL; a case adds its fragment.
func TestLink(t *testing.T) {
	c := &Case{Robots: "User-agent: *\nDisallow: /\n", Agents: []string{"GPTBot"}, URLs: []string{"/a b"}}
	abs, err := filepath.Abs("page.html")
	if err != nil {
		t.Fatal(err)
	}
	file := (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
	for _, tc := range []struct {
		name, base string
		c          *Case
		want       string
	}{
		{"file", "", nil, file},
		{"file_case", "", c, file + "#" + Fragment(*c)},
		{"base_case", "https://example.org/tester.html", c, "https://example.org/tester.html#robots=User-agent%3A%20%2A%0ADisallow%3A%20%2F%0A&agent=GPTBot&url=%2Fa%20b"},
	} {
		if got, err := Link(tc.base, "page.html", tc.c); err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}
