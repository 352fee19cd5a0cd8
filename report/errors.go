package report

import "errors"

// Errors the package returns, wrapped with the detail.
var (
	// ErrNotDataset is wrapped by Read when the folder holds no robotstat
	// output.
	ErrNotDataset = errors.New("not a robotstat output")
	// ErrTallyOptions is wrapped by TallyOptions.Validate.
	ErrTallyOptions = errors.New("report: invalid tally options")
)
