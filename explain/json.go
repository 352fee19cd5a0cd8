package explain

import "encoding/json"

// answer is ExplainJSON's reply: exactly one of the two is set.
type answer struct {
	Report *Report `json:"report,omitempty"`
	Error  string  `json:"error,omitempty"`
}

// ExplainJSON is Explain with JSON in and out, for a caller across a
// language boundary (the tester page's JavaScript, through WebAssembly):
// req is a Request in JSON, the reply {"report": Report} or {"error":
// "..."}. A JSON string holds text, so a body that is not UTF-8 reaches
// Explain with U+FFFD in place of its invalid bytes.
func (x *Explainer) ExplainJSON(req []byte) []byte {
	var r Request
	var a answer
	if err := json.Unmarshal(req, &r); err != nil {
		a.Error = "explain: request: " + err.Error()
	} else if a.Report, err = x.Explain(&r); err != nil {
		a.Error = err.Error()
	}
	b, err := json.Marshal(&a)
	if err != nil {
		// A Report is strings, ints and slices; Marshal cannot fail on it.
		panic("explain: encoding the report: " + err.Error())
	}
	return b
}
