package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/report/reporttest"
	"github.com/robotstat/robotstat/schema"
)

// reportSite is one capture of a hand-built dataset.
type reportSite = reporttest.Site

// writeSites runs the sites through the real Analyzer and Dataset writer.
func writeSites(t *testing.T, sites []reportSite) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "out")
	if err := reporttest.WriteSites(dir, sites, Version); err != nil {
		t.Fatal(err)
	}
	return dir
}

// squash collapses runs of spaces, so expectations do not depend on column
// widths.
func squash(s string) string { return regexp.MustCompile(` +`).ReplaceAllString(s, " ") }

// section returns the lines of the text report's table with the given
// title, up to the next blank line after its rows.
func section(t *testing.T, out, title string) string {
	t.Helper()
	i := strings.Index(out, "== "+title+" ==")
	if i < 0 {
		t.Fatalf("no section %q in\n%s", title, out)
	}
	rest := out[i:]
	if j := strings.Index(rest, "\n\n== "); j >= 0 {
		rest = rest[:j]
	}
	return squash(rest)
}

// The brief's example, end to end through Parquet (analyze's tables, then
// the sites step): three parsed sites, one blocks GPTBot by name, one
// everything by *, one nothing; a 404; an http capture of the first host that
// says the opposite (https answers: RFC 9309 names no order, robotstat's
// sites prefer https); a capture at another path, which no site has as a
// candidate. Every number below is counted by hand from these bodies.
func TestReportThreeSites(t *testing.T) {
	t.Parallel()
	dir := writeSites(t, []reportSite{
		{Crawl: "CC-MAIN-2024-33", URL: "https://a.example/robots.txt", Status: 200, Body: "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\nCrawl-delay: 5\n"},
		{Crawl: "CC-MAIN-2024-33", URL: "https://b.example/robots.txt", Status: 200, Body: "User-agent: *\nDisallow: /\n"},
		{Crawl: "CC-MAIN-2024-33", URL: "https://c.example/robots.txt", Status: 200, Body: "User-agent: *\nDisallow:\n"},
		{Crawl: "CC-MAIN-2024-33", URL: "https://d.example/robots.txt", Status: 404, Body: "<html>gone</html>"},
		{Crawl: "CC-MAIN-2024-33", URL: "http://a.example/robots.txt", Status: 200, Body: "User-agent: *\nDisallow:\n"},
		{Crawl: "CC-MAIN-2024-33", URL: "https://e.example/other/robots.txt", Status: 200, Body: "User-agent: *\nDisallow: /\n"},
	})
	out, errOut, code := run(t, "", "report", dir, "--all-bots")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// Each share is followed by its 95% Wilson score interval, worked by
	// hand from (k + z²/2 ± z·sqrt(k(n-k)/n + z²/4)) / (n + z²), and "!":
	// every n here is under 100.
	want := map[string][]string{
		"Captures and sites": {
			"== Captures and sites == % of captures read: 6",
			"captures read 6 100.0% [61.0-100.0]!",
			"candidates: captures of a site's /robots.txt 5 83.3% [43.6-97.0]!",
			"sites 4 66.7% [30.0-90.3]!",
			"sites answered through a redirect 0 0.0% [0.0-39.0]!",
		},
		"robots.txt adoption": {
			"== robots.txt adoption == % of sites: 4",
			"robots.txt with at least one group 3 75.0% [30.1-95.4]!",
			"no robots.txt: 4xx, everything allowed 1 25.0% [4.6-69.9]!",
		},
		"AI bots: sites that block them fully (robotstat verdict)": {
			"== AI bots: sites that block them fully (robotstat verdict) == % of parsed robots.txt: 3",
			"bot operator category full by name by * partial none",
			// a by name, b by *, c not at all
			"GPTBot OpenAI ai-training 2 66.7% [20.8-93.9]! 1 33.3% [6.1-79.2]! 1 33.3% [6.1-79.2]! 0 0.0% [0.0-56.1]! 1 33.3% [6.1-79.2]!",
			// no file names the others: a's * group keeps them out of
			// /private/ only, b's out of everything
			"every other AI bot (64) - only * applies 1 33.3% [6.1-79.2]! 0 0.0% [0.0-56.1]! 1 33.3% [6.1-79.2]! 1 33.3% [6.1-79.2]! 1 33.3% [6.1-79.2]!",
		},
		"AI bots by category: sites that block some, or every, bot of the category fully": {
			"ai-training some bot 2 66.7% [20.8-93.9]!",
			"every bot 1 33.3% [6.1-79.2]!",
		},
		"Every catalog bot under each definition": {
			"GPTBot ai-training verdict 2 66.7% [20.8-93.9]! 1 33.3% [6.1-79.2]! 1 33.3% [6.1-79.2]! 0 0.0% [0.0-56.1]! 1 33.3% [6.1-79.2]!",
			"somesite 2 66.7% [20.8-93.9]! 1 33.3% [6.1-79.2]! 1 33.3% [6.1-79.2]! 0 0.0% [0.0-56.1]! 1 33.3% [6.1-79.2]!",
			"cic 2 66.7% [20.8-93.9]! 1 33.3% [6.1-79.2]! 1 33.3% [6.1-79.2]! 0 0.0% [0.0-56.1]! 1 33.3% [6.1-79.2]!",
			"cc_class 2 66.7% [20.8-93.9]! 1 33.3% [6.1-79.2]! 1 33.3% [6.1-79.2]! 0 0.0% [0.0-56.1]! 1 33.3% [6.1-79.2]!",
		},
		"Top named agents: sites whose robots.txt names the product token": {
			"* - - 3 100.0% [43.9-100.0]!",
			"gptbot GPTBot ai-training 1 33.3% [6.1-79.2]!",
		},
		"Non-standard directives: sites whose robots.txt has the key": {
			"crawl-delay extension crawl-delay 1 33.3% [6.1-79.2]!",
		},
		"What parsed robots.txt contain": {
			"* disallows / 1 33.3% [6.1-79.2]!",
			"crawl-delay line 1 33.3% [6.1-79.2]!",
		},
	}
	for title, lines := range want {
		sec := section(t, out, title)
		have := map[string]bool{}
		for _, l := range strings.Split(sec, "\n") {
			have[strings.TrimSpace(l)] = true
		}
		for _, l := range lines {
			if !have[l] {
				t.Errorf("section %q lacks line %q:\n%s", title, l, sec)
			}
		}
	}
	if !strings.Contains(errOut, "robotstat: read ") {
		t.Errorf("no summary on stderr: %q", errOut)
	}
	// Without --all-bots the table of every bot is left out.
	if out, _, _ := run(t, "", "report", dir); strings.Contains(out, "Every catalog bot under each definition") {
		t.Error("every bot's table printed without --all-bots")
	}
}

// --csv DIR writes every export into DIR, --json prints them on stdout
// instead of the text.
func TestReportExports(t *testing.T) {
	t.Parallel()
	dir := writeSites(t, []reportSite{
		{Crawl: "CC-MAIN-2024-33", URL: "https://a.example/robots.txt", Status: 200, Body: "User-agent: GPTBot\nDisallow: /\n"},
		{Crawl: "CC-MAIN-2024-38", URL: "https://a.example/robots.txt", Status: 200, Body: "User-agent: *\nDisallow: /\n"},
	})
	csvDir := filepath.Join(t.TempDir(), "figures")
	out, errOut, code := run(t, "", "report", dir, "--csv", csvDir, "--json", "--panel")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		PanelHosts int64                       `json:"panel_hosts"`
		Exports    map[string][]map[string]any `json:"exports"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	rows := doc.Exports["bots_by_crawl"]
	if doc.PanelHosts != 1 || len(rows) == 0 || rows[0]["crawl"] != "CC-MAIN-2024-33" || rows[0]["crawl_date"] != "2024-08-12" {
		t.Errorf("panel hosts %d, first bots_by_crawl row %v", doc.PanelHosts, rows[0])
	}
	entries, err := os.ReadDir(csvDir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".csv") || strings.HasPrefix(e.Name(), ".") {
			t.Errorf("%s in the CSV folder", e.Name())
		}
		if _, ok := doc.Exports[strings.TrimSuffix(e.Name(), ".csv")]; !ok {
			t.Errorf("%s is not in the JSON", e.Name())
		}
		n++
	}
	if n != len(doc.Exports) || !strings.Contains(errOut, fmt.Sprintf("%d CSV files in %s", n, csvDir)) {
		t.Errorf("%d CSV files, %d exports; stderr %q", n, len(doc.Exports), errOut)
	}
}

func TestReportErrors(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	noParquet := t.TempDir()
	if err := os.MkdirAll(filepath.Join(noParquet, "captures", "crawl=x"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	unranked := writeSites(t, []reportSite{{Crawl: "c", URL: "https://a.example/robots.txt", Status: 200, Body: "User-agent: *\nDisallow: /\n"}})
	try := "Try: robotstat report --help"
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr []string
	}{
		{"no_out_dir", []string{"report"}, 2, []string{"need one OUT_DIR", try}},
		{"two_dirs", []string{"report", empty, empty}, 2, []string{"need one OUT_DIR", try}},
		{"missing_dir", []string{"report", filepath.Join(empty, "nope")}, 2, []string{"does not exist; write it with robotstat analyze --out", try}},
		{"a_file", []string{"report", file}, 2, []string{"is not a folder", try}},
		{"not_robotstat_output", []string{"report", empty}, 2, []string{"is not a robotstat output: it has no sites folder", try}},
		{"no_sites", []string{"report", noParquet}, 2, []string{"it has captures but no sites table; build it with robotstat sites", try}},
		{"bad_by", []string{"report", unranked, "--by", "host"}, 2, []string{"--by must be crawl, rank or domain", try}},
		{"by_rank_without_ranks", []string{"report", "--by", "rank", unranked}, 2, []string{"no site in", "--sites FILE", try}},
		{"unknown_flag", []string{"report", unranked, "--pdf", "x"}, 2, []string{"-pdf", try}},
		{"html_unwritable", []string{"report", unranked, "--html", filepath.Join(empty, "no", "such", "dir", "r.html")}, 2, []string{"--html"}},
		{"csv_unwritable", []string{"report", unranked, "--csv", filepath.Join(file, "sub")}, 2, []string{"--csv"}},
		{"sites_missing", []string{"report", unranked, "--sites", filepath.Join(empty, "tranco.csv")}, 2, []string{"--sites"}},
	}
	// --html that cannot be written fails before the text report is
	// printed (issue 25.4): a folder, a folder that is not there.
	cases = append(cases, struct {
		name   string
		args   []string
		code   int
		stderr []string
	}{"html_folder", []string{"report", unranked, "--html", empty}, 2, []string{"--html " + empty + " is a folder: nothing done", try}})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := run(t, "", c.args...)
			if strings.HasPrefix(c.name, "html_") && out != "" {
				t.Errorf("the text report was printed before --html failed:\n%.200s", out)
			}
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr %q", code, c.code, errOut)
			}
			for _, s := range c.stderr {
				if !strings.Contains(errOut, s) {
					t.Errorf("stderr %q lacks %q", errOut, s)
				}
			}
		})
	}
}

func TestReportHelp(t *testing.T) {
	t.Parallel()
	out, _, code := run(t, "", "report", "--help")
	if code != 0 || !strings.Contains(out, "robotstat report [flags] OUT_DIR") || !strings.Contains(out, "Exit codes:") || !strings.Contains(out, "-html FILE") {
		t.Errorf("help (exit %d):\n%s", code, out)
	}
	out, _, _ = run(t, "", "help")
	if !strings.Contains(out, "report ") {
		t.Errorf("report missing from robotstat help:\n%s", out)
	}
}

// Tables the report reads may be missing (analyze --tables) and a table may
// hold files no completion record names (a killed run's, or copied in): the
// report says so on stderr and counts only committed files.
func TestReportPartialData(t *testing.T) {
	t.Parallel()
	// The agents table left out as analyze --tables does (deleting files a
	// record names is damage, which readers refuse: damage_test.go).
	dir := filepath.Join(t.TempDir(), "out")
	if err := reporttest.WriteSitesWithout(dir, []reportSite{
		{Crawl: "c1", URL: "https://a.example/robots.txt", Status: 200, Body: "User-agent: GPTBot\nDisallow: /\n"},
	}, Version, schema.Agents); err != nil {
		t.Fatal(err)
	}
	src, _ := filepath.Glob(filepath.Join(dir, "site_bots", "crawl=c1", "*.parquet"))
	orphan := filepath.Join(dir, "site_bots", "crawl=c2")
	if err := os.MkdirAll(orphan, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(src[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(orphan, "part-x.parquet"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "", "report", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"has no agents table", "1 site_bots files belong to no committed run"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	// 1 of 1, whose 95% Wilson score interval is 1/(1+z²) = 20.7% to 100%.
	if sec := section(t, out, "AI bots: sites that block them fully (robotstat verdict)"); !strings.Contains(sec, "GPTBot OpenAI ai-training 1 100.0% [20.7-100.0]! 1 100.0% [20.7-100.0]!") {
		t.Errorf("the orphan crawl's bots rows were counted:\n%s", sec)
	}
}

// --by domain counts one site per registered domain (the domains table
// robotstat sites wrote): example.com stands for its domain, not
// a.example.com which blocks GPTBot.
func TestReportByDomain(t *testing.T) {
	dir := writeSites(t, []reportSite{
		{Crawl: "CC-MAIN-2024-33", URL: "https://a.example.com/robots.txt", Status: 200, Body: "User-agent: GPTBot\nDisallow: /\n"},
		{Crawl: "CC-MAIN-2024-33", URL: "https://example.com/robots.txt", Status: 200, Body: "User-agent: *\nDisallow:\n"},
		{Crawl: "CC-MAIN-2024-33", URL: "https://www.other.org/robots.txt", Status: 200, Body: "User-agent: *\nDisallow:\n"},
	})
	out, errOut, code := run(t, "", "report", dir, "--by", "domain")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "domains: one site per crawl and registered domain") {
		t.Errorf("the preamble does not say sites are one per domain:\n%s", out[:min(len(out), 1500)])
	}
	// 0 of 2 (example.com, www.other.org): 95% Wilson score 0 to z²/(2+z²)
	// = 65.8%; no counted robots.txt names GPTBot, so it is one of the
	// bots only * decides.
	if sec := section(t, out, "AI bots: sites that block them fully (robotstat verdict)"); !strings.Contains(sec, "% of parsed robots.txt: 2") ||
		!strings.Contains(sec, "every other AI bot (65) - only * applies 0 0.0% [0.0-65.8]!") || strings.Contains(sec, "GPTBot OpenAI") {
		t.Errorf("by domain:\n%s", sec)
	}
	if _, errOut, code := run(t, "", "report", dir, "--by", "host"); code != 2 || !strings.Contains(errOut, "crawl, rank or domain") {
		t.Errorf("--by host: exit %d, %s", code, errOut)
	}
}
