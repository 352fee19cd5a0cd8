// Package wasmcase is the cases file the tester's WebAssembly module answers
// with "-cases FILE", and the one function both it and the native test
// answer a case with, so their replies can be compared byte for byte
// (tester's TestWasmAnswersLikeNative).
package wasmcase

import (
	"encoding/json"
	"fmt"

	"github.com/robotstat/robotstat/explain"
)

// Cases is the file "-cases" reads: bots to give verdicts for, and cases
// whose bodies are bytes (base64 in JSON), so that a body that is not UTF-8
// reaches the parser as it is, which a JSON string could not carry.
type Cases struct {
	Bots  []explain.Bot `json:"bots"`
	Cases []Case        `json:"cases"`
}

// Case is one request.
type Case struct {
	Name   string   `json:"name"`
	Robots []byte   `json:"robots"`
	Agents []string `json:"agents"`
	URLs   []string `json:"urls"`
	Status int      `json:"status,omitempty"`
}

// Answer answers one case as a line of JSON (without the newline).
func Answer(x *explain.Explainer, bots []explain.Bot, c *Case) ([]byte, error) {
	rep, err := x.Explain(&explain.Request{Robots: string(c.Robots), Agents: c.Agents, URLs: c.URLs, Status: c.Status, Bots: bots})
	if err != nil {
		return nil, fmt.Errorf("case %s: %w", c.Name, err)
	}
	return json.Marshal(struct {
		Name   string          `json:"name"`
		Report *explain.Report `json:"report"`
	}{c.Name, rep})
}
