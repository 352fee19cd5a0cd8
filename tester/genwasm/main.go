// Command genwasm builds the tester's WebAssembly module and writes what
// robotstat embeds, into the current directory (go generate ./tester runs it
// in tester/):
//
//	robotstat.wasm.gz      the module, gzip -9 (compress/gzip: no name or
//	                       time in the header, so the same module gives the
//	                       same file)
//	wasm_exec.js           the Go distribution's loader, $GOROOT/lib/wasm;
//	                       it must come from the toolchain that built the
//	                       module
//	robotstat.wasm.stamp   the toolchain, a hash of the sources and of the
//	                       module (wasmbuild.Stamp)
//
// It refuses a compressed module over 1.5 MB, the size up to which the
// module is committed rather than built at release time.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/robotstat/robotstat/internal/modroot"
	"github.com/robotstat/robotstat/tester/internal/wasmbuild"
)

const maxCompressed = 1_500_000

func main() {
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "genwasm:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	mod, err := modroot.FromWorkingDir()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "robotstat-wasm-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	wasmFile := filepath.Join(tmp, "robotstat.wasm")
	if err := wasmbuild.Build(ctx, mod, wasmFile); err != nil {
		return err
	}
	wasm, err := os.ReadFile(wasmFile)
	if err != nil {
		return err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(wasm)
	if err := zw.Close(); err != nil {
		return err
	}
	if gz.Len() > maxCompressed {
		return fmt.Errorf("the module is %d bytes compressed, over the %d this repository commits; see tester/README.md", gz.Len(), maxCompressed)
	}
	root, err := wasmbuild.GoRoot(ctx, mod)
	if err != nil {
		return err
	}
	loader, err := os.ReadFile(filepath.Join(root, "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return fmt.Errorf("the Go distribution's wasm_exec.js (Go 1.24 and later keep it in lib/wasm): %w", err)
	}
	goVersion, err := wasmbuild.GoVersion(ctx, mod)
	if err != nil {
		return err
	}
	sources, err := wasmbuild.Sources(ctx, mod)
	if err != nil {
		return err
	}
	stamp := wasmbuild.Stamp{Go: goVersion, Sources: sources, Wasm: wasmbuild.Hash(wasm), Size: len(wasm)}
	for name, b := range map[string][]byte{
		"robotstat.wasm.gz":    gz.Bytes(),
		"wasm_exec.js":         loader,
		"robotstat.wasm.stamp": stamp.Format(),
	} {
		if err := os.WriteFile(name, b, 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("genwasm: %s: robotstat.wasm %d bytes, %d gzipped\n", goVersion, len(wasm), gz.Len())
	return nil
}
