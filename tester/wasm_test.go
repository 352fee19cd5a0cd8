package tester

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/robotstat/robotstat/explain"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/stats"
	"github.com/robotstat/robotstat/tester/internal/wasmbuild"
	"github.com/robotstat/robotstat/tester/internal/wasmcase"
)

const regenerate = "run go generate ./tester and commit tester/robotstat.wasm.gz, wasm_exec.js and robotstat.wasm.stamp"

func stamp(t *testing.T) wasmbuild.Stamp {
	t.Helper()
	s, err := wasmbuild.ParseStamp(wasmStamp)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestWasmUpToDate fails when the committed module is stale: the sources it
// is built from (everything tester/wasm imports outside the Go distribution,
// and go.mod) changed since go generate, or the module and its stamp do not
// belong together, or (with the toolchain that built it) wasm_exec.js is
// not the distribution's.
func TestWasmUpToDate(t *testing.T) {
	ctx := context.Background()
	s := stamp(t)
	mod, _ := filepath.Abs("..")
	sources, err := wasmbuild.Sources(ctx, mod)
	if err != nil {
		t.Fatal(err)
	}
	if sources != s.Sources {
		t.Fatalf("the WebAssembly module's sources changed since it was built (%s, stamp %s): %s", sources, s.Sources, regenerate)
	}
	zr, err := gzip.NewReader(bytes.NewReader(wasmGz))
	if err != nil {
		t.Fatal(err)
	}
	wasm, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if got := wasmbuild.Hash(wasm); got != s.Wasm || len(wasm) != s.Size {
		t.Fatalf("robotstat.wasm.gz is %s (%d bytes), its stamp says %s (%d): %s", got, len(wasm), s.Wasm, s.Size, regenerate)
	}
	goVersion, _ := wasmbuild.GoVersion(ctx, mod)
	root, _ := wasmbuild.GoRoot(ctx, mod)
	if goVersion != s.Go {
		t.Logf("the module was built by %s, this is %s: wasm_exec.js not compared", s.Go, goVersion)
		return
	}
	loader, err := os.ReadFile(filepath.Join(root, "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	if string(loader) != wasmExecJS {
		t.Fatalf("tester/wasm_exec.js is not %s's lib/wasm/wasm_exec.js: %s", goVersion, regenerate)
	}
}

// aiBots is what robotstat tester puts in the page: the catalog's AI bots.
func aiBots() []explain.Bot {
	var out []explain.Bot
	for _, b := range stats.DefaultCatalog().Bots() {
		if schema.IsAICategory(b.Category) {
			out = append(out, explain.Bot{Token: b.Token, Operator: b.Operator, Category: b.Category})
		}
	}
	return out
}

// TestWasmAnswersLikeNative builds the WebAssembly module, runs it under
// Node with the Go distribution's wasm_exec_node.js on every case of parse's
// conformance table (plus a few with several agents and URLs and other
// statuses) and compares each reply, byte for byte, with the native build's:
// decisions, explanations, findings, records and the AI bots' verdicts. With
// the toolchain that built the committed module, the fresh build must also
// be byte for byte the committed one.
func TestWasmAnswersLikeNative(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the module and runs Node (about 15 s)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH (Debian: apt-get install nodejs): the WebAssembly build is not compared")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	mod, _ := filepath.Abs("..")
	dir := t.TempDir()

	// The cases: parse's conformance table, exported by its own test.
	confFile := filepath.Join(dir, "conformance.json")
	cmd := exec.CommandContext(ctx, "go", "test", "./parse", "-run", "^TestConformanceExport$", "-count=1", "-args", "-conformance-out="+confFile)
	cmd.Dir = mod
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("exporting the conformance table: %v\n%s", err, out)
	}
	var conf []struct {
		Name    string `json:"name"`
		Robots  []byte `json:"robots"`
		Agent   string `json:"agent"`
		URL     string `json:"url"`
		Allowed bool   `json:"allowed"`
	}
	b, err := os.ReadFile(confFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &conf); err != nil {
		t.Fatal(err)
	}
	if len(conf) < 150 {
		t.Fatalf("%d conformance cases, want the whole table", len(conf))
	}
	cases := wasmcase.Cases{Bots: aiBots()}
	want := map[string]bool{}
	for _, c := range conf {
		cases.Cases = append(cases.Cases, wasmcase.Case{Name: c.Name, Robots: c.Robots, Agents: []string{c.Agent}, URLs: []string{c.URL}})
		want[c.Name] = c.Allowed
	}
	multi := []byte("User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\nAllow: /private/ok$\nDissallow: /typo\nCrawl-delay: 5\n")
	agents, urls := []string{"GPTBot", "ccbot/2.0", "Googlebot", "*", "Mozilla/5.0 (x)"}, []string{"/", "/private/ok", "/private/ok/x", "/typo", "/robots.txt", "https://e.com/%7Eu/ツ"}
	for _, st := range []int{200, 404, 503} {
		cases.Cases = append(cases.Cases, wasmcase.Case{Name: "tester_multi_" + string(rune('0'+st/100)) + "xx", Robots: multi, Agents: agents, URLs: urls, Status: st})
	}
	casesFile := filepath.Join(dir, "cases.json")
	b, err = json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(casesFile, b, 0o644); err != nil {
		t.Fatal(err)
	}

	// The module, built as go generate builds it.
	wasmFile := filepath.Join(dir, "robotstat.wasm")
	if err := wasmbuild.Build(ctx, mod, wasmFile); err != nil {
		t.Fatal(err)
	}
	if s, v := stamp(t), mustGoVersion(t, ctx, mod); s.Go == v {
		fresh, _ := os.ReadFile(wasmFile)
		if got := wasmbuild.Hash(fresh); got != s.Wasm {
			t.Errorf("a fresh build of the module (%s) is not the committed one (%s): %s", got, s.Wasm, regenerate)
		}
	}

	// One Node process for every case.
	root, err := wasmbuild.GoRoot(ctx, mod)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	run := exec.CommandContext(ctx, node, filepath.Join(root, "lib", "wasm", "wasm_exec_node.js"), wasmFile, "-cases", casesFile)
	run.Stdout, run.Stderr = &stdout, &stderr
	start := time.Now()
	if err := run.Run(); err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.Bytes())
	}
	t.Logf("node answered %d cases in %v", len(cases.Cases), time.Since(start).Round(time.Millisecond))

	var x explain.Explainer
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	i := 0
	for ; sc.Scan(); i++ {
		if i >= len(cases.Cases) {
			t.Fatalf("node printed more than %d lines", len(cases.Cases))
		}
		c := &cases.Cases[i]
		native, err := wasmcase.Answer(&x, cases.Bots, c)
		if err != nil {
			t.Fatal(err)
		}
		if got := sc.Bytes(); !bytes.Equal(got, native) {
			t.Errorf("%s: the WebAssembly build answers\n%s\nthe native build\n%s", c.Name, clip(got), clip(native))
			continue
		}
		if w, ok := want[c.Name]; ok {
			var a struct {
				Report explain.Report `json:"report"`
			}
			if err := json.Unmarshal(native, &a); err != nil {
				t.Fatal(err)
			}
			if d := a.Report.Decisions; len(d) != 1 || d[0].Allowed != w {
				t.Errorf("%s: allowed=%v, the conformance table says %v", c.Name, d[0].Allowed, w)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if i != len(cases.Cases) {
		t.Fatalf("node answered %d of %d cases\n%s", i, len(cases.Cases), stderr.Bytes())
	}
}

func mustGoVersion(t *testing.T, ctx context.Context, dir string) string {
	t.Helper()
	v, err := wasmbuild.GoVersion(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// clip shortens a reply for an error message (a case's reply can be 300 KB).
func clip(b []byte) string {
	if len(b) > 2000 {
		return string(b[:2000]) + "..."
	}
	return string(b)
}
