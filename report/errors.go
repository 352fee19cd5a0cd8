package report

import "errors"

// Errors the package returns, wrapped with the detail.
var (
	// ErrNotDataset is wrapped by Read when the folder holds no robotstat
	// output.
	ErrNotDataset = errors.New("not a robotstat output")
	// ErrTallyOptions is wrapped by TallyOptions.Validate.
	ErrTallyOptions = errors.New("report: invalid tally options")
	// ErrOldSites is wrapped by Read when the sites table predates
	// sites.crawl_date: robotstat sites rebuilds it.
	ErrOldSites = errors.New("the sites table needs a rebuild")
	// ErrNoHistory is wrapped by Read when the panel is asked for and the
	// dataset has no site_history table.
	ErrNoHistory = errors.New("no site_history table")
	// ErrNoDomains is wrapped by Read when TallyOptions.Domains is set and
	// the dataset has no domains table (built by robotstat sites before
	// it wrote one).
	ErrNoDomains = errors.New("no domains table")
)
