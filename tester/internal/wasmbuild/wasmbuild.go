// Package wasmbuild builds the tester's WebAssembly module and says what it
// was built from, for go generate (tester/genwasm) and for the tests that
// fail when the committed module is stale. It runs the go command, so only
// those two use it; robotstat itself embeds the result.
package wasmbuild

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Main is the WebAssembly module's main package.
const Main = "github.com/robotstat/robotstat/tester/wasm"

// Build compiles Main for GOOS=js GOARCH=wasm into out, from the module at
// dir. The flags make the build reproducible (the same toolchain and sources
// give the same bytes wherever the checkout is: -trimpath, no VCS stamp) and
// small (-s -w: no symbol table or DWARF, which the page does not need);
// GOFLAGS from the environment is ignored so that it cannot change them.
func Build(ctx context.Context, dir, out string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", out, Main)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOFLAGS=", "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s for js/wasm: %w\n%s", Main, err, stderr.Bytes())
	}
	return nil
}

// GoVersion returns the go command's version ("go1.26.8").
func GoVersion(ctx context.Context, dir string) (string, error) {
	b, err := goCmd(ctx, dir, nil, "env", "GOVERSION")
	return strings.TrimSpace(string(b)), err
}

// GoRoot returns the go command's GOROOT, where lib/wasm/wasm_exec.js is.
func GoRoot(ctx context.Context, dir string) (string, error) {
	b, err := goCmd(ctx, dir, nil, "env", "GOROOT")
	return strings.TrimSpace(string(b)), err
}

// Sources returns a hash of what the module is built from outside the Go
// distribution: go.mod, and the name and contents of every Go and embedded
// file of every non-standard package Main imports for js/wasm. It changes
// whenever the module would, except for a change of toolchain (recorded
// apart, see Stamp).
func Sources(ctx context.Context, dir string) (string, error) {
	out, err := goCmd(ctx, dir, []string{"GOOS=js", "GOARCH=wasm", "GOFLAGS="}, "list", "-deps",
		"-f", "{{if not .Standard}}{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \" \"}} {{join .EmbedFiles \" \"}}{{end}}", Main)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return "", err
	}
	fmt.Fprintf(h, "go.mod %d\n", len(gomod))
	h.Write(gomod)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	sort.Strings(lines)
	for _, line := range lines {
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 {
			return "", fmt.Errorf("go list: unexpected line %q", line)
		}
		names := strings.Fields(f[2])
		sort.Strings(names)
		for _, name := range names {
			b, err := os.ReadFile(filepath.Join(f[1], name))
			if err != nil {
				return "", err
			}
			fmt.Fprintf(h, "%s/%s %d\n", f[0], name, len(b))
			h.Write(b)
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

func goCmd(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out, nil
}

// Stamp is what the committed module was built from (tester/robotstat.wasm.stamp).
type Stamp struct {
	Go      string // the toolchain, "go1.26.8"
	Sources string // Sources at build time
	Wasm    string // sha256 of the uncompressed module
	Size    int    // bytes of the uncompressed module
}

// Format writes the stamp file.
func (s Stamp) Format() []byte {
	return fmt.Appendf(nil, "# Written by go generate ./tester (tester/genwasm): what robotstat.wasm.gz was built from.\n"+
		"# TestWasmUpToDate fails when the sources change and go generate was not run.\n"+
		"go %s\nsources %s\nwasm %s %d\n", s.Go, s.Sources, s.Wasm, s.Size)
}

// ParseStamp reads a stamp file.
func ParseStamp(b []byte) (Stamp, error) {
	var s Stamp
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch {
		case f[0] == "go" && len(f) == 2:
			s.Go = f[1]
		case f[0] == "sources" && len(f) == 2:
			s.Sources = f[1]
		case f[0] == "wasm" && len(f) == 3:
			s.Wasm = f[1]
			if _, err := fmt.Sscan(f[2], &s.Size); err != nil {
				return s, fmt.Errorf("stamp: wasm size %q: %w", f[2], err)
			}
		default:
			return s, fmt.Errorf("stamp: unexpected line %q", line)
		}
	}
	if s.Go == "" || s.Sources == "" || s.Wasm == "" {
		return s, fmt.Errorf("stamp: incomplete: %+v", s)
	}
	return s, nil
}

// Hash is the stamp's form of a module's sha256.
func Hash(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}
