package outfile

import (
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func text(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

// names lists dir's entries, hidden ones too: no temporary file may stay.
func names(t *testing.T, dir string) string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return strings.Join(out, " ")
}

func mode(t *testing.T, p string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode()
}

func TestRegular(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "page.html")
	if err := Write(p, text("one")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one" {
		t.Fatalf("new file holds %q", b)
	}
	// A new file is 0666 minus the umask, as cp and > make it (the old
	// code's temporary file was 0600 before a chmod to 0644).
	old := syscall.Umask(0o022)
	syscall.Umask(old)
	if got := mode(t, p).Perm(); got != 0o666&^fs.FileMode(old) {
		t.Errorf("new file mode %v, want %v", got, 0o666&^fs.FileMode(old))
	}

	// Replaced atomically: the permission bits stay.
	if err := os.Chmod(p, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, text("two")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "two" || mode(t, p).Perm() != 0o640 {
		t.Fatalf("replaced file holds %q, mode %v", b, mode(t, p))
	}

	// A failing writer leaves the old file whole and no temporary file.
	boom := errors.New("boom")
	err := Write(p, func(w io.Writer) error {
		io.WriteString(w, strings.Repeat("x", 100000))
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), p) {
		t.Fatalf("err %v, want boom naming %s", err, p)
	}
	if b, _ := os.ReadFile(p); string(b) != "two" {
		t.Fatalf("after a failed write the file holds %q", b)
	}
	if got := names(t, dir); got != "page.html" {
		t.Fatalf("folder holds %s", got)
	}
}

func TestReadOnlyRefused(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write any file, as cp may")
	}
	p := filepath.Join(t.TempDir(), "keep.html")
	if err := os.WriteFile(p, []byte("mine"), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, text("new")); !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("err %v, want permission denied", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "mine" {
		t.Fatalf("read-only file replaced: %q", b)
	}
}

// TestFIFO: a named pipe is written through and stays a pipe (the old
// code renamed a regular file over it).
func TestFIFO(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("pipe", link); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{p, link} {
		got := make(chan string)
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
		if err := Write(target, text("through the pipe")); err != nil {
			t.Fatal(err)
		}
		if s := <-got; s != "through the pipe" {
			t.Fatalf("%s: reader got %q", target, s)
		}
		if m := mode(t, p); m&fs.ModeNamedPipe == 0 {
			t.Fatalf("%s: the FIFO is now %v", target, m)
		}
	}
	if m := mode(t, link); m&fs.ModeSymlink == 0 {
		t.Fatalf("the link is now %v", m)
	}
	if got := names(t, dir); got != "link pipe" {
		t.Fatalf("folder holds %s", got)
	}
}

// TestDevNull: /dev/null (and a link to it) is written through and is
// still a character device after: as root, the old code replaced the node
// with a regular file.
func TestDevNull(t *testing.T) {
	before := mode(t, "/dev/null")
	if before&fs.ModeCharDevice == 0 {
		t.Skip("/dev/null is not a character device here")
	}
	link := filepath.Join(t.TempDir(), "null")
	if err := os.Symlink("/dev/null", link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/dev/null", link} {
		if err := Write(p, text("gone")); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if m := mode(t, "/dev/null"); m != before {
			t.Fatalf("after writing %s, /dev/null is %v (was %v)", p, m, before)
		}
	}
}

// TestSymlinkToRegular: the target is replaced atomically beside itself
// and the link stays a link.
func TestSymlinkToRegular(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "real")
	if err := os.Mkdir(sub, 0o777); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(sub, "page.html")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "page.html")
	if err := os.Symlink("real/page.html", link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, text("new")); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, link); m&fs.ModeSymlink == 0 {
		t.Fatalf("the link is now %v", m)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" || mode(t, target).Perm() != 0o600 {
		t.Fatalf("target holds %q, mode %v", b, mode(t, target))
	}
	if got := names(t, sub); got != "page.html" {
		t.Fatalf("target folder holds %s", got)
	}
}

func TestRefused(t *testing.T) {
	dir := t.TempDir()
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink("nowhere/x.html", dangling); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	folder := filepath.Join(dir, "folder")
	if err := os.Mkdir(folder, 0o777); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want error
	}{
		{"-", ErrDash},
		{dangling, ErrDangling},
		{sock, ErrNotFile},
		{folder, ErrDirectory},
	} {
		before := names(t, dir)
		called := false
		err := Write(tc.path, func(w io.Writer) error { called = true; return nil })
		if !errors.Is(err, tc.want) || called {
			t.Errorf("%s: err %v (writer called: %v), want %v", tc.path, err, called, tc.want)
		}
		if after := names(t, dir); after != before {
			t.Errorf("%s: folder went from %s to %s", tc.path, before, after)
		}
	}
	if m := mode(t, sock); m&fs.ModeSocket == 0 {
		t.Errorf("the socket is now %v", m)
	}
	if _, err := os.Stat(filepath.Join(dir, "nowhere")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a dangling link's target was created: %v", err)
	}
}

// TestProcFDLink: a link to /proc/self/fd/N (what /dev/stdout is on
// Linux), here a pipe's write end, is written through to the pipe: the
// issue's "symlink to /proc/self/fd/1", which the old code replaced with a
// regular file.
func TestProcFDLink(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	fd := "/proc/self/fd/" + strconv.Itoa(int(w.Fd()))
	if _, err := os.Stat(fd); err != nil {
		t.Skipf("no %s: %v", fd, err)
	}
	link := filepath.Join(t.TempDir(), "stdout")
	if err := os.Symlink(fd, link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, text("to the pipe")); err != nil {
		t.Fatal(err)
	}
	w.Close()
	b, _ := io.ReadAll(r)
	if string(b) != "to the pipe" {
		t.Fatalf("pipe got %q", b)
	}
	if m := mode(t, link); m&fs.ModeSymlink == 0 {
		t.Fatalf("the link is now %v", m)
	}
}

// TestCheck: Check refuses what Write refuses, and a folder that is not
// there, before anything is computed (robotstat report --html, issue
// 25.4), and leaves nothing behind; what Write writes it accepts.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink("nowhere/x.html", dangling); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	regular := filepath.Join(dir, "old.html")
	if err := os.WriteFile(regular, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		want       error // nil: accepted
		refused    bool
	}{
		{"dash", "-", ErrDash, true},
		{"dangling", dangling, ErrDangling, true},
		{"socket", sock, ErrNotFile, true},
		{"folder", dir, ErrDirectory, true},
		{"no_folder", filepath.Join(dir, "no", "such", "r.html"), fs.ErrNotExist, true},
		{"new_file", filepath.Join(dir, "new.html"), nil, false},
		{"regular", regular, nil, false},
		{"fifo", fifo, nil, false}, // not opened: that would wait for a reader
		{"dev_null", os.DevNull, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := names(t, dir)
			err := Check(tc.path)
			if tc.refused != (err != nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Errorf("Check(%s) = %v, want %v", tc.path, err, tc.want)
			}
			if after := names(t, dir); after != before {
				t.Errorf("folder went from %s to %s", before, after)
			}
		})
	}
	if b, _ := os.ReadFile(regular); string(b) != "old" {
		t.Errorf("Check changed a regular file: %q", b)
	}
}
