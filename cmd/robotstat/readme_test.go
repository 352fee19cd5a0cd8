package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/internal/cli"
)

// The README's commands must keep working: these tests fail when they stop.

func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// codeBlocks returns the fenced blocks of the given language ("" for a
// fence without one), in order.
func codeBlocks(doc, lang string) []string {
	var out []string
	var cur []string
	in, keep := false, false
	for _, l := range strings.Split(doc, "\n") {
		switch {
		case !in && strings.HasPrefix(l, "```"):
			in, keep, cur = true, strings.TrimPrefix(l, "```") == lang, nil
		case in && l == "```":
			in = false
			if keep {
				out = append(out, strings.Join(cur, "\n")+"\n")
			}
		case in:
			cur = append(cur, l)
		}
	}
	return out
}

func TestReadmeFirstCommands(t *testing.T) {
	t.Parallel()
	doc := readme(t)
	first := codeBlocks(doc, "sh")[0]
	want := "go run ./cmd/robotstat analyze --out out/\ngo test ./...\n"
	if first != want {
		t.Fatalf("the README's first commands are\n%s\nwant exactly\n%s", first, want)
	}
	// Run the first one (in-process, into a temporary out/) and compare with
	// the listing the README shows.
	args := strings.Fields(strings.Split(first, "\n")[0])[3:] // after "go run ./cmd/robotstat"
	dir := t.TempDir()
	for i, a := range args {
		if a == "out/" {
			args[i] = filepath.Join(dir, "out")
		}
	}
	if _, stderr, code := run(t, "", args...); code != 0 {
		t.Fatalf("%v: exit %d\n%s", args, code, stderr)
	}
	listing := codeBlocks(doc, "")[0]
	var documented, written []string
	for _, m := range regexp.MustCompile(`(?m)^  (\w+)/crawl=(?:robotstat-sample|__HIVE_DEFAULT_PARTITION__)/part-(?:<run>|sites)\.<commit>\.parquet`).FindAllStringSubmatch(listing, -1) {
		documented = append(documented, m[1])
	}
	for _, f := range parquetFiles(t, filepath.Join(dir, "out")) {
		written = append(written, strings.Split(f, string(filepath.Separator))[0])
	}
	if strings.Join(documented, ",") != "captures,groups,agents,directives,signals,verdicts,errors,sites,site_bots,domains" || len(written) != len(documented) {
		t.Errorf("README lists %v, analyze wrote %v", documented, written)
	}
}

// TestReadmeCheckExample runs the check session the README shows and
// compares its output line by line.
func TestReadmeCheckExample(t *testing.T) {
	t.Parallel()
	doc := readme(t)
	var session string
	for _, b := range codeBlocks(doc, "sh") {
		if strings.Contains(b, "robotstat check --explain") && strings.HasPrefix(b, "$ ") {
			session = b
		}
	}
	if session == "" {
		t.Fatal("no check session in the README")
	}
	dir := t.TempDir()
	lines := strings.Split(strings.TrimSuffix(session, "\n"), "\n")
	var got, want []string
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "$ printf "):
			m := regexp.MustCompile(`^\$ printf '(.*)' > (\S+)$`).FindStringSubmatch(l)
			if m == nil {
				t.Fatalf("cannot read %q", l)
			}
			os.WriteFile(filepath.Join(dir, m[2]), []byte(strings.ReplaceAll(m[1], `\n`, "\n")), 0o644)
		case strings.HasPrefix(l, "$ go run ./cmd/robotstat "):
			args := strings.Fields(strings.TrimPrefix(l, "$ go run ./cmd/robotstat "))
			for i, a := range args {
				if a == "robots.txt" {
					args[i] = filepath.Join(dir, a)
				}
			}
			out, _, _ := run(t, "", args...)
			got = append(got, strings.Split(strings.TrimSuffix(out, "\n"), "\n")...)
		default:
			want = append(want, l)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("check prints\n%s\nthe README shows\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestReadmeExitCodes keeps the README's exit code table equal to --help's.
func TestReadmeExitCodes(t *testing.T) {
	t.Parallel()
	doc := readme(t)
	_, section, ok := strings.Cut(doc, "\n## Exit codes\n")
	if !ok {
		t.Fatal("no Exit codes section in the README")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var readmeCodes, helpCodes []string
	for _, m := range regexp.MustCompile(`(?m)^\| (\d+) \|`).FindAllStringSubmatch(section, -1) {
		readmeCodes = append(readmeCodes, m[1])
	}
	for _, m := range regexp.MustCompile(`(?m)^  (\d+) `).FindAllStringSubmatch(cli.ExitCodeHelp(exitCodes, nil), -1) {
		helpCodes = append(helpCodes, m[1])
	}
	if strings.Join(readmeCodes, ",") != strings.Join(helpCodes, ",") {
		t.Errorf("README exit codes %v, --help %v", readmeCodes, helpCodes)
	}
}
