package main

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOutputPathsNeverReplaced (issue 26.1): report --html, report --csv
// and tester --out replace a regular file atomically, write through to a
// FIFO or character device and follow a link, but never rename a file
// over what is not a regular file. The old code renamed a regular file
// over a named pipe, over a link to one and (as root) over /dev/null.
func TestOutputPathsNeverReplaced(t *testing.T) {
	t.Parallel()
	site := writeSites(t, []reportSite{{Crawl: "c", URL: "https://a.example/robots.txt", Status: 200, Body: "User-agent: GPTBot\nDisallow: /\n"}})
	commands := []struct {
		name string
		args func(path string) []string
		want string // in what reaches the path
	}{
		{"report_html", func(p string) []string { return []string{"report", site, "--html", p} }, "<!DOCTYPE html>"},
		{"tester_out", func(p string) []string { return []string{"tester", "--out", p} }, "<!DOCTYPE html>"},
	}
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			fifo := filepath.Join(dir, "pipe")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			toFifo := filepath.Join(dir, "to-pipe")
			toFile := filepath.Join(dir, "to-file")
			regular := filepath.Join(dir, "real.html")
			dangling := filepath.Join(dir, "dangling")
			for _, l := range [][2]string{{"pipe", toFifo}, {"real.html", toFile}, {"gone/x.html", dangling}} {
				if err := os.Symlink(l[0], l[1]); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(regular, []byte("old"), 0o640); err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{fifo, toFifo} {
				got := readFIFO(fifo)
				if _, stderr, code := run(t, "", c.args(p)...); code != 0 {
					t.Fatalf("%s: exit %d\n%s", p, code, stderr)
				}
				if m := lmode(t, fifo); m&fs.ModeNamedPipe == 0 {
					t.Fatalf("%s: the FIFO was replaced: now %v", p, m)
				}
				if s := got(t); !strings.Contains(s, c.want) {
					t.Errorf("%s: the pipe's reader got %.80q", p, s)
				}
			}
			if m := lmode(t, "/dev/null"); m&fs.ModeCharDevice != 0 {
				if _, stderr, code := run(t, "", c.args("/dev/null")...); code != 0 {
					t.Fatalf("/dev/null: exit %d\n%s", code, stderr)
				}
				if after := lmode(t, "/dev/null"); after != m {
					t.Fatalf("/dev/null is now %v, was %v", after, m)
				}
			}
			// A link to a regular file: the target is replaced, the link stays.
			if _, stderr, code := run(t, "", c.args(toFile)...); code != 0 {
				t.Fatalf("link to a file: exit %d\n%s", code, stderr)
			}
			if b, _ := os.ReadFile(regular); !strings.Contains(string(b), c.want) || lmode(t, regular).Perm() != 0o640 || lmode(t, toFile)&fs.ModeSymlink == 0 {
				t.Errorf("link to a file: target %.40q mode %v, link %v", b, lmode(t, regular), lmode(t, toFile))
			}
			for p, msg := range map[string]string{dangling: "symbolic link to nothing", "-": `"-" is not a file here`, dir: "is a folder"} {
				if _, stderr, code := run(t, "", c.args(p)...); code != ExitUsage || !strings.Contains(stderr, msg) {
					t.Errorf("%s: exit %d, want %d with %q:\n%s", p, code, ExitUsage, msg, stderr)
				}
			}
			if _, err := os.Lstat(filepath.Join(dir, "gone")); err == nil {
				t.Error("a dangling link's target was created")
			}
			es, _ := os.ReadDir(dir)
			var names []string
			for _, e := range es {
				names = append(names, e.Name())
			}
			if got := strings.Join(names, " "); got != "dangling pipe real.html to-file to-pipe" {
				t.Errorf("the folder holds %s", got)
			}
		})
	}

	// --csv DIR: a FIFO named as one of the files is written through.
	t.Run("report_csv", func(t *testing.T) {
		dir := t.TempDir()
		fifo := filepath.Join(dir, "trends.csv")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		got := readFIFO(fifo)
		if _, stderr, code := run(t, "", "report", site, "--csv", dir); code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		if m := lmode(t, fifo); m&fs.ModeNamedPipe == 0 {
			t.Fatalf("the FIFO was replaced: now %v", m)
		}
		if s := got(t); !strings.HasPrefix(s, "crawl,") {
			t.Errorf("the pipe's reader got %.80q", s)
		}
	})
}

// readFIFO reads the named pipe at p in the background, as a consumer of
// the command's output would; the function it returns waits for what it
// read (a few seconds at most: a reader whose pipe was replaced would wait
// forever).
func readFIFO(p string) func(t *testing.T) string {
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(p)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	return func(t *testing.T) string {
		t.Helper()
		select {
		case s := <-got:
			return s
		case <-time.After(10 * time.Second):
			t.Fatal("nothing reached the pipe's reader")
			return ""
		}
	}
}

func lmode(t *testing.T, p string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode()
}
