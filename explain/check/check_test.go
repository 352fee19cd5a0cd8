package check

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/explain"
	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/stats"
)

const robots = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\nAllow: /private/ok$\n"

var bots = []explain.Bot{{Token: "GPTBot", Operator: "OpenAI", Category: "ai-training"}}

func compile(body string) *parse.Robots {
	var r parse.Robots
	parse.NewParser(parse.Options{}).Compile([]byte(body), &r)
	return &r
}

// TestValidURL: only control characters are refused, with where they are.
func TestValidURL(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"", "/", "/100%", "ftp://e.net/a b", "xyz/foo.js", "/ü"} {
		if err := ValidURL(u); err != nil {
			t.Errorf("ValidURL(%q): %v", u, err)
		}
	}
	for _, c := range []struct{ url, want string }{
		{"/a\x00b", `"/a\x00b" is not a URL or a path: it holds the control character 0x00 (byte 2)`},
		{"/a\x7f", `"/a\x7f" is not a URL or a path: it holds the control character 0x7F (byte 2)`},
		{"\r", `"\r" is not a URL or a path: it holds the control character 0x0D (byte 0)`},
	} {
		if err := ValidURL(c.url); err == nil || err.Error() != c.want {
			t.Errorf("ValidURL(%q) = %v, want %s", c.url, err, c.want)
		}
	}
}

// TestReadBody: the limit + 1 bytes are read (so the parser can tell a cut
// line), the default limit for 0, everything for -1.
func TestReadBody(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("a", 2*parse.DefaultLimit)
	for _, c := range []struct {
		name  string
		limit int
		want  int
	}{
		{"limit", 600_000, 600_001},
		{"default", 0, parse.DefaultLimit + 1},
		{"none", -1, len(in)},
	} {
		body, err := ReadBody(strings.NewReader(in), parse.Options{Limit: c.limit})
		if err != nil || len(body) != c.want {
			t.Errorf("%s: %d bytes, %v; want %d", c.name, len(body), err, c.want)
		}
	}
}

// TestWriteDecisions: a word and the URL a line, the explanation after a
// tab, or a Record a line; disallowed says whether any URL was.
func TestWriteDecisions(t *testing.T) {
	t.Parallel()
	r := compile(robots)
	q := Query{File: "robots.txt", Agent: "Googlebot/2.1", Token: "Googlebot", Status: 200, URLs: []string{"/a", "/private/x", "/private/ok"}}
	var b strings.Builder
	w := bufio.NewWriter(&b)
	if !WriteDecisions(w, r, q, Output{}) {
		t.Error("a URL disallowed, not reported")
	}
	w.Flush()
	if want := "allowed /a\ndisallowed /private/x\nallowed /private/ok\n"; b.String() != want {
		t.Errorf("text:\n%s\nwant\n%s", b.String(), want)
	}

	b.Reset()
	q.URLs = q.URLs[:1]
	if WriteDecisions(w, r, q, Output{Explain: true, Bots: bots}) {
		t.Error("no URL disallowed, but reported")
	}
	w.Flush()
	if want := "allowed /a\t" + explain.Decide(r, q.Agent, bots, "/a", 200).Text + "\n"; b.String() != want {
		t.Errorf("explain: %q, want %q", b.String(), want)
	}

	b.Reset()
	q.Agent, q.Token, q.URLs = "GPTBot", "GPTBot", []string{"/a&b"}
	WriteDecisions(w, r, q, Output{JSON: true})
	w.Flush()
	if want := `{"file":"robots.txt","agent":"GPTBot","url":"/a&b","token":"gptbot","status":200,"verdict":"disallowed","allowed":false,"reason":"rule","match":"named","rule_line":2,"rule":"disallow: /"}` + "\n"; b.String() != want {
		t.Errorf("json:\n%s\nwant\n%s", b.String(), want)
	}
}

// TestBatch: each line answered in order; lines not decided are errors
// (told to OnError, and a Record with --json naming the line); a file is
// read once while consecutive lines name it.
func TestBatch(t *testing.T) {
	t.Parallel()
	reads := map[string]int{}
	read := func(file string) ([]byte, error) {
		reads[file]++
		if file == "missing" {
			return nil, os.ErrNotExist
		}
		return []byte(robots), nil
	}
	in := "a\tGPTBot\t/x\na\tGooglebot\t/x\r\na\tGooglebot\t/private\nmissing\tx\t/\nnot a line\n\tx\t/\na\tx\t/\x00\nb\tGPTBot\t/\na\tx\t/\n"
	var failed []int
	b := Batch{Read: read, OnError: func(line int, err error) { failed = append(failed, line) }}
	var out strings.Builder
	w := bufio.NewWriter(&out)
	res, err := b.Run(context.Background(), strings.NewReader(in), w)
	w.Flush()
	if err != nil {
		t.Fatal(err)
	}
	if want := "disallowed\nallowed\ndisallowed\nerror\nerror\nerror\nerror\ndisallowed\nallowed\n"; out.String() != want {
		t.Errorf("answers:\n%s\nwant\n%s", out.String(), want)
	}
	if res != (BatchResult{Lines: 9, Disallowed: true, Failed: true}) || len(failed) != 4 || failed[0] != 4 || failed[3] != 7 {
		t.Errorf("result %+v, failed lines %v", res, failed)
	}
	if reads["a"] != 2 || reads["b"] != 1 || reads["missing"] != 1 {
		t.Errorf("reads %v: want a twice (it is named again after b), b and missing once", reads)
	}

	b.JSON, b.OnError = true, nil
	out.Reset()
	if _, err := b.Run(context.Background(), strings.NewReader("missing\tx\t/\nnot a line\n"), w); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	var recs []Record
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r Record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	if len(recs) != 2 || recs[0].File != "missing" || recs[0].Verdict != "error" || recs[0].InputLine != 1 || !strings.Contains(recs[0].Error, "not exist") ||
		recs[1].File != "" || recs[1].InputLine != 2 || recs[1].Error != "want FILE<TAB>AGENT<TAB>URL" {
		t.Errorf("records %+v", recs)
	}
}

// TestBatchCancelled: a done context stops the batch at the next
// 1024-line mark, with what was answered flushed.
func TestBatchCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b := Batch{Read: func(string) ([]byte, error) { return nil, nil }}
	var out strings.Builder
	w := bufio.NewWriter(&out)
	res, err := b.Run(ctx, strings.NewReader(strings.Repeat("a\tx\t/\n", 2000)), w)
	if !errors.Is(err, context.Canceled) || res.Lines != 1024 || out.String() != strings.Repeat("allowed\n", 1023) {
		t.Errorf("%v after %d lines, %d bytes out", err, res.Lines, out.Len())
	}
}

// TestBots: every catalog bot, or those whose category keep holds of,
// with the catalog's token, operator and category.
func TestBots(t *testing.T) {
	t.Parallel()
	cat := stats.DefaultCatalog()
	all := Bots(cat, nil)
	if len(all) != len(cat.Bots()) || len(all) == 0 {
		t.Fatalf("%d bots of %d", len(all), len(cat.Bots()))
	}
	for i, b := range cat.Bots() {
		if all[i] != (explain.Bot{Token: b.Token, Operator: b.Operator, Category: b.Category}) {
			t.Errorf("bot %d: %+v, catalog %+v", i, all[i], b)
		}
	}
	ai := Bots(cat, func(c string) bool { return strings.HasPrefix(c, "ai-") })
	if len(ai) == 0 || len(ai) >= len(all) {
		t.Errorf("%d AI bots of %d", len(ai), len(all))
	}
	for _, b := range ai {
		if !strings.HasPrefix(b.Category, "ai-") {
			t.Errorf("%s: category %s kept", b.Token, b.Category)
		}
	}
}
