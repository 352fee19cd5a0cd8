package parse

import (
	"encoding/json"
	"flag"
	"os"
	"testing"
)

var conformanceOut = flag.String("conformance-out", "", "write the conformance table as JSON to this `file` (tester's TestWasmAnswersLikeNative reads it)")

// conformanceCase is a conformance case as JSON: the body as bytes (base64),
// since several bodies are not UTF-8 and a JSON string would change them.
type conformanceCase struct {
	Name   string `json:"name"`
	Robots []byte `json:"robots"`
	Agent  string `json:"agent"`
	URL    string `json:"url"`
	Want   bool   `json:"allowed"`
}

// TestConformanceExport writes the conformance table for tests in other
// packages, which cannot see this one's test files: go test ./parse -run
// '^TestConformanceExport$' -args -conformance-out FILE. Without the flag it
// does nothing.
func TestConformanceExport(t *testing.T) {
	if *conformanceOut == "" {
		t.Skip("no -conformance-out")
	}
	out := make([]conformanceCase, len(conformance))
	for i, c := range conformance {
		out[i] = conformanceCase{c.name, []byte(c.robots), c.agent, c.url, c.want}
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(*conformanceOut, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
