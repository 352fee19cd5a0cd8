package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
)

const usage = "Usage:\n  prog cmd [flags] ARG...\n\nDoes things.\n"

func flags() (*flag.FlagSet, *string, *int, *bool) {
	fs := NewFlagSet("cmd")
	out := fs.String("out", "out", "write under `DIR`")
	n := fs.Int("n", 0, "do it `N` times")
	v := fs.Bool("v", false, "say more\nover two lines")
	return fs, out, n, v
}

// TestParse: flags before, between and after the positional arguments,
// "--" ends them, -name is accepted too.
func TestParse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		pos  []string
		out  string
		n    int
		v    bool
	}{
		{"none", nil, nil, "out", 0, false},
		{"before", []string{"--out", "d", "a", "b"}, []string{"a", "b"}, "d", 0, false},
		{"between_and_after", []string{"a", "--n", "3", "b", "-v"}, []string{"a", "b"}, "out", 3, true},
		{"double_dash_ends_flags", []string{"a", "--", "--n", "-v"}, []string{"a", "--n", "-v"}, "out", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, out, n, v := flags()
			pos, err := Parse(fs, tc.args, io.Discard, usage, "")
			if err != nil || !slices.Equal(pos, tc.pos) || *out != tc.out || *n != tc.n || *v != tc.v {
				t.Errorf("%q: %q out=%q n=%d v=%v, %v", tc.args, pos, *out, *n, *v, err)
			}
		})
	}
}

// TestParseMistakes: a mistake is a UsageError in the --name style with
// the synopsis, whose hint names the command's help.
func TestParseMistakes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--frobnicate"}, "unknown flag --frobnicate"},
		{[]string{"a", "-x"}, "unknown flag --x"},
		{[]string{"--out"}, "flag --out needs a value"},
		{[]string{"--n", "many"}, `invalid value "many" for --n: parse error`},
	} {
		fs, _, _, _ := flags()
		_, err := Parse(fs, tc.args, io.Discard, usage, "")
		u, ok := AsUsage(fmt.Errorf("wrapped: %w", err))
		if !ok || u.Msg != tc.want+"\nUsage:\n  prog cmd [flags] ARG..." || u.Try("prog") != "prog cmd --help" {
			t.Errorf("%q: %v", tc.args, err)
		}
	}
	if u, _ := AsUsage(Usagef("", "no command %q", "x")); u.Error() != `no command "x"` || u.Try("prog") != "prog help" {
		t.Errorf("program's own usage error: %v", u)
	}
}

// TestHelp: --help writes the usage, the flags as --name VALUE with their
// non-zero defaults, and the footer; a help that cannot be written fails.
func TestHelp(t *testing.T) {
	t.Parallel()
	fs, _, _, _ := flags()
	var b strings.Builder
	if _, err := Parse(fs, []string{"a", "--help"}, &b, usage, "Exit codes:\n  0 ok\n"); !errors.Is(err, ErrHelp) {
		t.Fatal(err)
	}
	want := usage + "\nFlags:\n" +
		"  --n N\n    \tdo it N times\n" +
		"  --out DIR\n    \twrite under DIR (default \"out\")\n" +
		"  --v\n    \tsay more\n    \tover two lines\n" +
		"\nExit codes:\n  0 ok\n"
	if b.String() != want {
		t.Errorf("help:\n%s\nwant\n%s", b.String(), want)
	}
	fs, _, _, _ = flags()
	if _, err := Parse(fs, []string{"-h"}, failWriter{}, usage, ""); err == nil || errors.Is(err, ErrHelp) || !strings.Contains(err.Error(), "cmd --help: writing: disk full") {
		t.Errorf("help to a full disk: %v", err)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestErrWriter: the first error is kept and every later write fails.
func TestErrWriter(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	w := &ErrWriter{W: &b}
	fmt.Fprint(w, "a")
	if w.Err != nil || b.String() != "a" {
		t.Fatalf("%v %q", w.Err, b.String())
	}
	w.W = failWriter{}
	fmt.Fprint(w, "b")
	w.W = &b
	if n, err := fmt.Fprint(w, "c"); n != 0 || err == nil || w.Err == nil || b.String() != "a" {
		t.Errorf("after a failed write: %d %v %q", n, err, b.String())
	}
}

// TestExitError: a silent exit carries only its code; one with an error
// prints it and unwraps to it.
func TestExitError(t *testing.T) {
	t.Parallel()
	if err := Silent(1); !IsSilent(fmt.Errorf("x: %w", err)) || err.Error() != "exit 1" {
		t.Errorf("silent: %v", err)
	}
	cause := errors.New("stopped")
	err := &ExitError{Code: 4, Err: cause}
	if IsSilent(err) || !errors.Is(err, cause) || err.Error() != "stopped" {
		t.Errorf("with an error: %v", err)
	}
}

// TestWriteJSON: indented by two spaces, a newline at the end, and the
// writer's error returned.
func TestWriteJSON(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	if err := WriteJSON(&b, map[string]any{"a": 1, "b": []int{2}}); err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"a\": 1,\n  \"b\": [\n    2\n  ]\n}\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	if err := WriteJSON(failWriter{}, 1); err == nil {
		t.Error("a failed write is not an error")
	}
}

// TestIgnoreHelp: a served --help is success; other errors stay.
func TestIgnoreHelp(t *testing.T) {
	t.Parallel()
	fs, _, _, _ := flags()
	_, err := Parse(fs, []string{"--help"}, io.Discard, usage, "")
	if err == nil || IgnoreHelp(err) != nil {
		t.Errorf("--help: %v, %v", err, IgnoreHelp(err))
	}
	other := Usagef("cmd", "bad")
	if IgnoreHelp(other) != other || IgnoreHelp(nil) != nil {
		t.Error("IgnoreHelp changed another error")
	}
}

// TestExitCodeHelp: the codes asked for, in the table's order, a text's
// later lines indented under its first.
func TestExitCodeHelp(t *testing.T) {
	t.Parallel()
	all := []ExitCode{{Code: 0, Text: "ok"}, {Code: 2, Text: "usage error, or\nan environment failure"}, {Code: 130, Text: "interrupted"}}
	if got, want := ExitCodeHelp(all, nil), "Exit codes:\n  0    ok\n  2    usage error, or\n       an environment failure\n  130  interrupted\n"; got != want {
		t.Errorf("all:\n%s\nwant\n%s", got, want)
	}
	if got, want := ExitCodeHelp(all, []int{130, 0}), "Exit codes:\n  0    ok\n  130  interrupted\n"; got != want {
		t.Errorf("some:\n%s\nwant\n%s", got, want)
	}
}

// TestSetAndIsTerminal: Set tells a flag given from one left at its
// default; a regular file is no terminal, /dev/null (a character device)
// counts as one.
func TestSetAndIsTerminal(t *testing.T) {
	fs := NewFlagSet("cmd")
	fs.Float64("rate", 1, "")
	fs.Bool("www", false, "")
	if err := fs.Parse([]string{"--www"}); err != nil {
		t.Fatal(err)
	}
	if !Set(fs, "www") || Set(fs, "rate") {
		t.Errorf("Set: www %v, rate %v; want true, false", Set(fs, "www"), Set(fs, "rate"))
	}
	f, err := os.CreateTemp(t.TempDir(), "x")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Error("a regular file counts as a terminal")
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Skip(err)
	}
	defer null.Close()
	if !IsTerminal(null) {
		t.Errorf("%s is no character device", os.DevNull)
	}
}
