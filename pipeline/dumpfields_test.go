package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDumpFieldsSaySo: issue 10 item 5. Each of these was read silently:
// a CSV without url or host column as one uncounted row error, a bare host
// in the url column as a capture without host, a date-only time as a NULL
// fetch time, an empty input as nothing at all; --fields host= did not
// exist. Now each is read, or fails, saying why.
func TestDumpFieldsSaySo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Run("csv_without_url_or_host_column", func(t *testing.T) {
		p := write("tranco.csv", "rank,domain\n1,google.com\n")
		caps, sum, err := collect(t, Config{}, p)
		if err != nil || len(caps) != 0 || sum.Errors[ClassRow] != 1 || len(sum.Diagnostics) != 1 {
			t.Fatalf("err %v, %d captures, errors %v: want one counted row error and the run going on", err, len(caps), sum.Errors)
		}
		if d := sum.Diagnostics[0]; !errors.Is(d, ErrNoURLColumn) || d.Offset != 0 || !strings.Contains(d.Error(), `"rank", "domain"`) || !strings.Contains(d.Error(), "--fields host=") {
			t.Errorf("diagnostic %v; want ErrNoURLColumn at offset 0 naming the columns and --fields", d)
		}
	})
	t.Run("fields_host_names_the_column", func(t *testing.T) {
		p := write("domains.csv", "domain,body\nexample.com,\"User-agent: *\nDisallow: /\"\nWWW.Example.ORG,x\n")
		caps, sum, err := collect(t, Config{Fields: Fields{Host: "domain"}}, p)
		if err != nil || sum.HadErrors() || len(caps) != 2 || find(caps, "https://example.com/robots.txt") == nil || find(caps, "https://www.example.org/robots.txt") == nil {
			t.Errorf("err %v, %d captures %+v, %v", err, len(caps), caps, sum.Diagnostics)
		}
	})
	t.Run("bare_host_in_url_column", func(t *testing.T) {
		p := write("bare.csv", "url,body\nexample.com,x\nhttps://b.example/robots.txt,y\n")
		caps, sum, err := collect(t, Config{}, p)
		if err != nil || len(caps) != 1 || sum.Errors[ClassRow] != 1 || !strings.Contains(sum.Diagnostics[0].Error(), `"example.com", not an absolute http(s) URL (a host? name its column with --fields host=url)`) {
			t.Fatalf("err %v, %d captures, diagnostics %v", err, len(caps), sum.Diagnostics)
		}
		// The hint works: the url column read as hosts.
		caps, sum, err = collect(t, Config{Fields: Fields{Host: "url"}}, p)
		if err != nil || sum.HadErrors() || len(caps) != 2 || find(caps, "https://example.com/robots.txt") == nil {
			t.Errorf("--fields host=url: err %v, %d captures, %v", err, len(caps), sum.Diagnostics)
		}
	})
	t.Run("bare_host_in_jsonl", func(t *testing.T) {
		p := write("bare.jsonl", `{"url":"example.com","body":"x"}`+"\n"+`{"host":"c.example","body":"y"}`+"\n")
		caps, sum, err := collect(t, Config{}, p)
		if err != nil || len(caps) != 1 || caps[0].URL != "https://c.example/robots.txt" || sum.Errors[ClassRow] != 1 {
			t.Errorf("err %v, captures %+v, %v", err, caps, sum.Diagnostics)
		}
	})
	t.Run("times", func(t *testing.T) {
		p := write("times.csv", "url,time\nhttps://a.example/robots.txt,2024-05-18\nhttps://b.example/robots.txt,2024-05-18 10:11:12\nhttps://c.example/robots.txt,May 5\nhttps://d.example/robots.txt,\n")
		caps, sum, err := collect(t, Config{}, p)
		if err != nil || len(caps) != 4 {
			t.Fatalf("err %v, %d captures", err, len(caps))
		}
		for url, want := range map[string]time.Time{
			"https://a.example/robots.txt": time.Date(2024, 5, 18, 0, 0, 0, 0, time.UTC),
			"https://b.example/robots.txt": time.Date(2024, 5, 18, 10, 11, 12, 0, time.UTC),
			"https://c.example/robots.txt": {}, // kept, without a time, and counted
			"https://d.example/robots.txt": {},
		} {
			if c := find(caps, url); !c.FetchTime.Equal(want) {
				t.Errorf("%s: time %v, want %v", url, c.FetchTime, want)
			}
		}
		if sum.Errors[ClassRow] != 1 || !strings.Contains(sum.Diagnostics[0].Error(), `"May 5", not a time`) {
			t.Errorf("diagnostics %v; want one naming the time that is not one", sum.Diagnostics)
		}
	})
	t.Run("empty_inputs", func(t *testing.T) {
		a, b := write("empty.jsonl", ""), write("header-only.csv", "url,body\n")
		c := write("rows.jsonl", `{"url":"https://e.example/robots.txt","body":""}`+"\n")
		_, sum, err := collect(t, Config{}, a, b, c)
		if err != nil || sum.Empty != 2 || strings.Join(sum.EmptyExamples, ",") != "empty.jsonl,header-only.csv" {
			t.Errorf("err %v, empty %d %q", err, sum.Empty, sum.EmptyExamples)
		}
	})
}
