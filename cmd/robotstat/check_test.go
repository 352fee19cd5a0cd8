package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robotstat/robotstat/explain/check"
	"github.com/robotstat/robotstat/internal/cli"
	"github.com/robotstat/robotstat/pipeline"
)

const checkRobots = "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\nAllow: /private/ok$\n"

// testRetryDelays is the backoff of every in-process run of the tests: 1 ms
// doubling up to 8 ms instead of 1 s up to a minute, so that a test of a
// refused download does not sit through 31 s of real waiting. The tries,
// their order and the messages are the same as with the defaults.
var testRetryDelays = pipeline.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 8 * time.Millisecond}

// run executes one command line in-process.
func run(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	m := &Main{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, retryDelays: testRetryDelays}
	err := m.Run(context.Background(), args)
	if err != nil && !cli.IsSilent(err) {
		m.report(err)
	}
	return out.String(), errb.String(), ExitCode(err)
}

func writeRobots(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCheck(t *testing.T) {
	t.Parallel()
	file := writeRobots(t, checkRobots)
	cases := []struct {
		name     string
		stdin    string
		args     []string
		stdout   string // exact, unless contains is set
		contains []string
		stderr   []string
		code     int
	}{
		{name: "all_allowed_exit_0", args: []string{"check", file, "Googlebot", "/a", "https://example.com/private/ok"},
			stdout: "allowed /a\nallowed https://example.com/private/ok\n", code: 0},
		{name: "any_disallowed_exit_1", args: []string{"check", file, "Googlebot", "/a", "/private/x"},
			stdout: "allowed /a\ndisallowed /private/x\n", code: 1},
		{name: "stacked_agents", args: []string{"check", file, "CCBot", "/"},
			stdout: "disallowed /\n", code: 1},
		{name: "flags_after_arguments", args: []string{"check", file, "Googlebot", "/private/x", "--explain"},
			contains: []string{"disallowed /private/x\tline 6: disallow: /private; matched by *: group at line 5 [*]"}, code: 1},
		{name: "explain_named_group", args: []string{"check", "--explain", file, "gptbot", "/x"},
			contains: []string{"disallowed /x\tline 3: disallow: /; matched by name: group at line 1 [GPTBot CCBot]"}, code: 1},
		{name: "explain_no_rule", args: []string{"check", "--explain", file, "Googlebot", "/public"},
			contains: []string{"allowed /public\tno rule matched; matched by *"}, code: 0},
		{name: "explain_implicit_robots_txt", args: []string{"check", "--explain", file, "GPTBot", "/robots.txt"},
			contains: []string{"allowed /robots.txt\t/robots.txt is implicitly allowed (RFC 9309 §2.2.2)"}, code: 0},
		{name: "stdin_file", stdin: "User-agent: *\nDisallow: /\n", args: []string{"check", "-", "x", "/a"},
			stdout: "disallowed /a\n", code: 1},
		{name: "agent_version_note", args: []string{"check", file, "GPTBot/1.1", "/a"},
			stdout: "disallowed /a\n", stderr: []string{`agent "GPTBot/1.1" is read as the product token "GPTBot"`}, code: 1},
		{name: "agent_full_header_names_catalog_bot", args: []string{"check", file, "Mozilla/5.0 (compatible; GPTBot/1.1; +https://openai.com/gptbot)", "/a"},
			stdout: "disallowed /a\n", stderr: []string{`is read as "GPTBot", the catalog bot it names`}, code: 1},
		{name: "agent_full_header_explained_as_catalog_bot", args: []string{"check", "--explain", file, "Mozilla/5.0 (compatible; GPTBot/1.1)", "/a"},
			contains: []string{"disallowed /a\tline 3: disallow: /; matched by name: group at line 1 [GPTBot CCBot]"}, code: 1},
		{name: "agent_unknown_header_note", args: []string{"check", file, "Mozilla/5.0 (compatible; FooBot/1.1)", "/a"},
			stdout: "allowed /a\n", stderr: []string{`names no catalog bot; it is read as its first product token "Mozilla"`}, code: 0},
		{name: "status_404_allows_all", args: []string{"check", "--status", "404", "--explain", file, "GPTBot", "/a"},
			contains: []string{"allowed /a\tstatus 404: robots.txt unavailable, everything allowed (RFC 9309 §2.3.1.3)"}, code: 0},
		{name: "status_503_disallows_all", args: []string{"check", "--status", "503", file, "Googlebot", "/a"},
			stdout: "disallowed /a\n", code: 1},
		{name: "status_429_rfc", args: []string{"check", "--status", "429", file, "Googlebot", "/private/x"},
			stdout: "allowed /private/x\n", code: 0},
		{name: "status_429_google", args: []string{"check", "--status", "429", "--429-unreachable", file, "Googlebot", "/a"},
			stdout: "disallowed /a\n", code: 1},
		{name: "status_301_refused", args: []string{"check", "--status", "301", file, "Googlebot", "/a"},
			stderr: []string{"is a redirect", "Try: robotstat check --help"}, code: 2},
		{name: "missing_arguments", args: []string{"check", file, "GPTBot"},
			stderr: []string{"need ROBOTS_FILE AGENT URL...", "Try: robotstat check --help"}, code: 2},
		{name: "unknown_flag", args: []string{"check", "--nope", file, "a", "/"},
			stderr: []string{"-nope", "Try: robotstat check --help"}, code: 2},
		{name: "missing_file", args: []string{"check", filepath.Join(t.TempDir(), "absent"), "a", "/"},
			stderr: []string{"reading robots.txt", "no such file"}, code: 2},
		{name: "small_parse_limit_refused", args: []string{"check", "--parse-limit", "100", file, "a", "/"},
			stderr: []string{"500 KiB"}, code: 2},
		{name: "help", args: []string{"check", "--help"},
			contains: []string{"Usage:", "--explain", "Exit codes:", "1    check: at least one URL disallowed"}, code: 0},
		{name: "unknown_command", args: []string{"chekc"},
			stderr: []string{`unknown command "chekc"`, "Try: robotstat help"}, code: 2},
		{name: "top_level_help", args: []string{"help"},
			contains: []string{"check", "Exit codes:"}, code: 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := run(t, c.stdin, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, out, errOut)
			}
			if c.stdout != "" && out != c.stdout {
				t.Errorf("stdout:\n%s\nwant:\n%s", out, c.stdout)
			}
			for _, s := range c.contains {
				if !strings.Contains(out, s) {
					t.Errorf("stdout lacks %q:\n%s", s, out)
				}
			}
			for _, s := range c.stderr {
				if !strings.Contains(errOut, s) {
					t.Errorf("stderr lacks %q:\n%s", s, errOut)
				}
			}
		})
	}
}

type countingOpen struct {
	opens map[string]int
}

func (c *countingOpen) open(name string) (io.ReadCloser, error) {
	c.opens[name]++
	return os.Open(name)
}

func TestCheckBatch(t *testing.T) {
	t.Parallel()
	a := writeRobots(t, checkRobots)
	b := writeRobots(t, "User-agent: *\nDisallow: /b\n")
	missing := filepath.Join(t.TempDir(), "missing.txt")
	in := strings.Join([]string{
		a + "\tGPTBot\t/x",
		a + "\tGooglebot\t/private/ok",
		a + "\tGooglebot\thttps://e.com/private/no",
		b + "\tGPTBot\t/b/c",
		b + "\tGPTBot\t/a",
		a + "\tCCBot\t/",
		"not a batch line",
		missing + "\tx\t/",
	}, "\n") + "\n"
	co := &countingOpen{opens: map[string]int{}}
	var out, errb bytes.Buffer
	m := &Main{Stdin: strings.NewReader(in), Stdout: &out, Stderr: &errb, open: co.open}
	err := m.Run(context.Background(), []string{"check", "--batch"})
	want := "disallowed\nallowed\ndisallowed\ndisallowed\nallowed\ndisallowed\nerror\nerror\n"
	if out.String() != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out.String(), want)
	}
	if ExitCode(err) != ExitUsage {
		t.Errorf("exit %d, want %d (a line failed)", ExitCode(err), ExitUsage)
	}
	// Consecutive lines naming the same file parse it once: a is read for
	// lines 1-3 and again for line 6, b once.
	if co.opens[a] != 2 || co.opens[b] != 1 {
		t.Errorf("opens = %v, want a twice and b once", co.opens)
	}
	for _, s := range []string{"stdin line 7: want FILE<TAB>AGENT<TAB>URL", "stdin line 8: reading robots.txt"} {
		if !strings.Contains(errb.String(), s) {
			t.Errorf("stderr lacks %q: %s", s, errb.String())
		}
	}
	// Without errors, the exit code says whether anything was disallowed.
	out.Reset()
	m = &Main{Stdin: strings.NewReader(b + "\tx\t/a\n"), Stdout: &out, Stderr: io.Discard}
	if err := m.Run(context.Background(), []string{"check", "--batch"}); err != nil || out.String() != "allowed\n" {
		t.Errorf("all-allowed batch: %v %q", err, out.String())
	}
}

// TestCheckBinary runs the real binary, so that the process exit codes are
// what --help documents.
func TestCheckBinary(t *testing.T) {
	t.Parallel()
	file := writeRobots(t, checkRobots)
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"check", file, "Googlebot", "/a"}, 0},
		{[]string{"check", file, "GPTBot", "/a"}, 1},
		{[]string{"check", file}, 2},
	} {
		cmd := robotstatCmd(t, c.args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code {
			t.Errorf("%v: exit %d, want %d (%s)", c.args, code, c.code, stderr.String())
		}
	}
}

// TestCheckIssue21Agents: the agents issue 21 names answer as protego,
// crawler-commons and Google do.
func TestCheckIssue21Agents(t *testing.T) {
	t.Parallel()
	crawler := writeRobots(t, "User-agent: crawler1\nDisallow: /index.html\n\nUser-agent: *\nDisallow:\n")
	gym := writeRobots(t, "User-agent: Rule1TestBot\nDisallow: /foo*\n\nUser-agent: Rule2TestBot\nDisallow: /foo*/bar.html\n")
	jaevla := writeRobots(t, "User-Agent: Jävla-Foobot\nDisallow: /\n")
	digits := writeRobots(t, "User-agent: MJ12bot\nUser-agent: 360Spider\nUser-agent: AI2Bot\nUser-agent: img2dataset\nDisallow: /\n\n"+
		"User-agent: Ai2Bot-Dolma\nDisallow: /dolma/\n\nUser-agent: *\nAllow: /\n")
	for _, c := range []struct {
		name, file, agent, url, want string
	}{
		{"crawler3_is_not_crawler1", crawler, "crawler3", "/index.html", "allowed"},
		{"crawler1_own_group", crawler, "crawler1", "/index.html", "disallowed"},
		{"Rule2TestBot_is_not_Rule1TestBot", gym, "Rule2TestBot", "/food/xyz.html", "allowed"},
		{"jaevla_fanbot_is_not_jaevla_foobot", jaevla, "jävla-fanbot", "/foo/bar.html", "allowed"},
		{"jaevla_foobot_own_group", jaevla, "JÄVLA-FOOBOT", "/foo/bar.html", "disallowed"},
		{"MJ12bot", digits, "MJ12bot", "/a", "disallowed"},
		{"360Spider", digits, "360Spider", "/a", "disallowed"},
		{"AI2Bot", digits, "AI2Bot", "/a", "disallowed"},
		{"img2dataset", digits, "img2dataset", "/a", "disallowed"},
		{"Ai2Bot_Dolma_own_group", digits, "Ai2Bot-Dolma", "/a", "allowed"},
		{"Ai2Bot_Dolma_own_rule", digits, "Ai2Bot-Dolma", "/dolma/x", "disallowed"},
		{"MJ12bot_header", digits, "Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)", "/a", "disallowed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, _ := run(t, "", "check", c.file, c.agent, c.url)
			if out != c.want+" "+c.url+"\n" {
				t.Errorf("check %s %s: %q (%s), want %s", c.agent, c.url, out, errOut, c.want)
			}
			batch, errOut, _ := run(t, c.file+"\t"+c.agent+"\t"+c.url+"\n", "check", "--batch")
			if batch != c.want+"\n" {
				t.Errorf("check --batch %s %s: %q (%s), want %s", c.agent, c.url, batch, errOut, c.want)
			}
		})
	}
}

// TestCheckURLs: every URL another parser answers is answered, alike in
// both modes, and the bare path agrees with the absolute URL; only what
// cannot be a URL at all is refused, with one message.
func TestCheckURLs(t *testing.T) {
	t.Parallel()
	file := writeRobots(t, "User-agent: *\nDisallow: /100%\nDisallow: /x%zz\nDisallow: /%a%a\nDisallow: /%E2%9C%BF%atest\n"+
		"Disallow: /$\nDisallow: /foo.html\nDisallow: /xyz/\nDisallow: /example.com/\n")
	for _, c := range []struct {
		name, url, want string
	}{
		{"malformed_escape_bare_path", "/100%", "disallowed"},
		{"malformed_escape_absolute", "https://www.example.org/100%", "disallowed"},
		{"malformed_escape_x_zz", "https://www.example.org/x%zz", "disallowed"},
		{"malformed_escape_a_a", "http://www.example.com/%a%a", "disallowed"},
		{"malformed_escape_after_good_one", "http://example.com/%E2%9C%BF%atest", "disallowed"},
		{"malformed_escape_other_path", "https://www.example.org/100", "allowed"},
		{"empty_is_root", "", "disallowed"},
		{"other_scheme", "ftp://example.net/foo.html", "disallowed"},
		{"relative_path", "xyz/foo.js", "disallowed"},
		{"relative_path_is_not_host_and_path", "foo/foo.html", "allowed"},
		{"schemeless_host_is_a_path", "example.com/a", "disallowed"},
		{"no_host", "https:///a", "allowed"},
		{"word", "foo", "allowed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := run(t, "", "check", file, "GPTBot", c.url)
			if out != c.want+" "+c.url+"\n" || code == ExitUsage {
				t.Errorf("check %q: %q, exit %d (%s), want %s", c.url, out, code, errOut, c.want)
			}
			batch, errOut, _ := run(t, file+"\tGPTBot\t"+c.url+"\n", "check", "--batch")
			if batch != c.want+"\n" {
				t.Errorf("check --batch %q: %q (%s), want %s", c.url, batch, errOut, c.want)
			}
		})
	}
	for _, bad := range []string{"/a\x00b", "\x00", "/a\x01", "/a\rb", "/a\x7f", "https://e.com/\x1b[31m"} {
		t.Run(fmt.Sprintf("refuses_%q", bad), func(t *testing.T) {
			_, errOut, code := run(t, "", "check", file, "GPTBot", bad)
			msg := check.ValidURL(bad)
			if msg == nil || code != ExitUsage || !strings.Contains(errOut, msg.Error()) || !strings.Contains(errOut, "is not a URL or a path") {
				t.Errorf("check %q: exit %d: %s", bad, code, errOut)
			}
			out, errOut, code := run(t, file+"\tGPTBot\t"+bad+"\n", "check", "--batch")
			if out != "error\n" || code != ExitUsage || !strings.Contains(errOut, "stdin line 1: "+msg.Error()) {
				t.Errorf("check --batch %q: %q, exit %d: %s", bad, out, code, errOut)
			}
		})
	}
}

// TestCheckJSON (issue 25.7): --json prints one JSON object a line per
// decision, with and without --batch, whose verdicts are the text mode's
// (same exit codes too), and a batch line that cannot be decided is an
// object of verdict error naming its stdin line.
func TestCheckJSON(t *testing.T) {
	file := writeRobots(t, checkRobots)
	decode := func(t *testing.T, stdout string) []check.Record {
		t.Helper()
		var out []check.Record
		for i, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
			var rec check.Record
			dec := json.NewDecoder(strings.NewReader(line))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&rec); err != nil {
				t.Fatalf("line %d %q: %v", i+1, line, err)
			}
			out = append(out, rec)
		}
		return out
	}

	urls := []string{"/a?x=1&y=<2>", "/private/x", "/private/ok", "/robots.txt"}
	text, _, textCode := run(t, "", append([]string{"check", file, "GPTBot/1.1"}, urls...)...)
	text2, _, _ := run(t, "", append([]string{"check", file, "Googlebot"}, urls...)...)
	stdout, _, code := run(t, "", append([]string{"check", "--json", file, "GPTBot/1.1"}, urls...)...)
	recs := decode(t, stdout)
	if code != textCode || code != ExitDisallowed || len(recs) != len(urls) {
		t.Fatalf("exit %d (text %d), %d records\n%s", code, textCode, len(recs), stdout)
	}
	for i, rec := range recs {
		if want := strings.Fields(strings.Split(text, "\n")[i])[0]; rec.Verdict != want || rec.URL != urls[i] || rec.File != file || rec.Agent != "GPTBot/1.1" || rec.Token != "gptbot" || rec.Status != 200 || rec.Allowed == nil || *rec.Allowed != (want == "allowed") {
			t.Errorf("record %d %+v, text says %s", i, rec, want)
		}
	}
	if r := recs[0]; r.Reason != "rule" || r.Match != "named" || r.RuleLine != 3 || r.Rule != "disallow: /" {
		t.Errorf("deciding rule of %+v", r)
	}
	if !strings.Contains(stdout, `"url":"/a?x=1&y=<2>"`) {
		t.Errorf("a URL is escaped for HTML: %s", stdout)
	}
	if r := recs[3]; r.Reason != "implicit" || r.Verdict != "allowed" {
		t.Errorf("/robots.txt: %+v", r)
	}
	// --explain adds the explanation; --status 503 every path disallowed.
	stdout, _, code = run(t, "", "check", "--json", "--explain", "--status", "503", file, "Googlebot", "/a")
	if recs := decode(t, stdout); code != ExitDisallowed || len(recs) != 1 || recs[0].Reason != "unreachable" || recs[0].Status != 503 ||
		!strings.Contains(recs[0].Explain, "status 503: robots.txt unreachable, everything disallowed") {
		t.Errorf("--status 503: exit %d\n%s", code, stdout)
	}

	// --batch: one object per line, errors included, verdicts as text.
	var in strings.Builder
	for _, u := range urls {
		fmt.Fprintf(&in, "%s\tGooglebot\t%s\n", file, u)
	}
	in.WriteString("no tabs here\n")
	fmt.Fprintf(&in, "%s\tx\t/a\x00b\n", file)
	fmt.Fprintf(&in, "%s\tx\t/\n", filepath.Join(t.TempDir(), "missing.txt"))
	textOut, _, textCode := run(t, in.String(), "check", "--batch")
	stdout, stderr, code := run(t, in.String(), "check", "--batch", "--json")
	recs = decode(t, stdout)
	words := strings.Fields(textOut)
	if code != textCode || code != ExitUsage || len(recs) != len(words) || len(recs) != len(urls)+3 {
		t.Fatalf("--batch --json: exit %d (text %d), %d records, %d words\n%s\n%s", code, textCode, len(recs), len(words), stdout, stderr)
	}
	for i, rec := range recs {
		if rec.Verdict != words[i] || rec.InputLine != i+1 {
			t.Errorf("line %d: %+v, text says %s", i+1, rec, words[i])
		}
		if i < len(urls) && rec.Verdict != strings.Fields(strings.Split(text2, "\n")[i])[0] {
			t.Errorf("line %d: batch %s, check %s", i+1, rec.Verdict, strings.Split(text2, "\n")[i])
		}
	}
	if e := recs[len(urls)]; e.Error != "want FILE<TAB>AGENT<TAB>URL" || e.File != "" || e.Allowed != nil {
		t.Errorf("malformed line: %+v", e)
	}
	if e := recs[len(urls)+1]; !strings.Contains(e.Error, "control character") || e.Agent != "x" {
		t.Errorf("control character: %+v", e)
	}
	if e := recs[len(urls)+2]; !strings.Contains(e.Error, "missing.txt") || !strings.Contains(stderr, "stdin line 7") {
		t.Errorf("missing file: %+v\n%s", e, stderr)
	}
}
