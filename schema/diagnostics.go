package schema

// DiagnosticRow is a row of the opt-in diagnostics table: one row per lint
// finding about a capture's body.
//
// A DiagnosticRow is a plain value; TableWriter.Write copies what it needs,
// so a batch may be reused once Write returns.
type DiagnosticRow struct {
	Key

	// Line number (from 1) the finding is about. NULL when it concerns the
	// whole body (a BOM, HTML served as robots.txt, the size).
	Line int32 `parquet:"line,optional"`
	// Stable machine-readable code of the finding (e.g. missing-colon,
	// rule-outside-group).
	Code string `parquet:"code,dict"`
	// Human-readable explanation.
	Message string `parquet:"message,dict"`
	// The offending text, cut to 256 bytes (MaxValueBytes). NULL when there
	// is none.
	Value string `parquet:"value,optional,dict"`
}
