//go:build js && wasm

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/robotstat/robotstat/explain"
	"github.com/robotstat/robotstat/tester/internal/wasmcase"
)

// runCases answers the cases of file (wasmcase.Cases), one line each.
func runCases(file string, out io.Writer) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var cs wasmcase.Cases
	if err := json.Unmarshal(b, &cs); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	w := bufio.NewWriter(out)
	var x explain.Explainer
	for i := range cs.Cases {
		line, err := wasmcase.Answer(&x, cs.Bots, &cs.Cases[i])
		if err != nil {
			return err
		}
		w.Write(line)
		w.WriteByte('\n')
	}
	return w.Flush()
}
