package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/internal/cli"
	"github.com/robotstat/robotstat/schema"
)

// TestExitCodeInputs holds the exit code table to what analyze does with
// an input it cannot read: one that is not there is found before anything
// is read (2, nothing written); one listed that fails while it is read
// fails alone, the others are written (5).
func TestExitCodeInputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.csv")
	notes := filepath.Join(dir, "notes.txt")
	for p, body := range map[string]string{good: "url,body\nhttps://www.garmin.com/robots.txt,\"User-agent: *\nDisallow: /\"\n", notes: "to do\n"} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/gone.csv") {
			http.NotFound(w, r)
			return
		}
		http.ServeFile(w, r, good)
	}))
	t.Cleanup(srv.Close)
	for _, tc := range []struct {
		name   string
		inputs []string
		code   int
		stderr string
	}{
		{"not_there", []string{good, filepath.Join(dir, "absent.warc.gz")}, ExitUsage, "absent.warc.gz: no such file"},
		{"not_an_input", []string{good, notes}, ExitUsage, "notes.txt: not a WARC"},
		{"fails_while_read", []string{srv.URL + "/good.csv", srv.URL + "/gone.csv"}, ExitInputsFailed, "input failed: " + srv.URL + "/gone.csv"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			_, stderr, code := run(t, "", append([]string{"analyze", "--quiet", "--out", out}, tc.inputs...)...)
			if code != tc.code || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, want %d (%q)\n%s", code, tc.code, tc.stderr, stderr)
			}
			if written := dirExists(out); written != (tc.code == ExitInputsFailed) {
				t.Errorf("exit %d, but --out written: %v", code, written)
			}
		})
	}
	for _, want := range []string{"input that is not there", "inputs listed could not be read"} {
		if !strings.Contains(cli.ExitCodeHelp(exitCodes, nil), want) {
			t.Errorf("the exit code table does not say %q:\n%s", want, cli.ExitCodeHelp(exitCodes, nil))
		}
	}
}

// TestAnalyzeHelpTables keeps analyze --help's list of the tables it
// writes true: every default table before "plus", every opt-in one after,
// as schema says which is which.
func TestAnalyzeHelpTables(t *testing.T) {
	t.Parallel()
	stdout, _, code := run(t, "", "analyze", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	para, _, _ := strings.Cut(stdout[strings.Index(stdout, "Reads robots.txt"):], "\n\n")
	para = strings.Join(strings.Fields(para), " ")
	dflt, optIn, ok := strings.Cut(para, " plus ")
	if !ok {
		t.Fatalf("no \"plus\" in %q", para)
	}
	optIn, _, _ = strings.Cut(optIn, " with --tables")
	words := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == ':' }) {
			m[w] = true
		}
		return m
	}
	d, o := words(dflt), words(optIn)
	for _, tb := range schema.DefaultTables() {
		if !d[string(tb)] || o[string(tb)] {
			t.Errorf("default table %s is not among the defaults --help names: %q", tb, para)
		}
	}
	for _, tb := range schema.OptInTables() {
		if !o[string(tb)] || d[string(tb)] {
			t.Errorf("opt-in table %s is not among the opt-in ones --help names: %q", tb, para)
		}
	}
	if !strings.Contains(stdout, `"default" (`+tableList(schema.DefaultTables())+`)`) {
		t.Errorf("--tables does not list the default tables %s", tableList(schema.DefaultTables()))
	}
}

// TestVersionLine (issue 25.7): --version prints the line of the
// binary's build info (cli.VersionLine, tested there).
func TestVersionLine(t *testing.T) {
	// What the test binary itself prints: the same line as its build info.
	bi, _ := debug.ReadBuildInfo()
	stdout, _, code := run(t, "", "--version")
	if code != 0 || stdout != cli.VersionLine("robotstat", Version, bi)+"\n" || !strings.Contains(stdout, "(commit ") {
		t.Errorf("--version: exit %d, %q", code, stdout)
	}
}
