package schema

// DomainRow is a row of the domains table: one row per crawl and
// registered domain that has a site, naming the one site that stands for
// the domain, so that shares can be counted per registered domain (report
// --by domain) instead of per host, where a domain with many hosts would
// weigh many times. robotstat sites builds it from the sites it writes.
// The representative is, among the domain's sites of the crawl: the site
// of the registered domain itself (example.com), else that of www. and the
// registered domain (www.example.com), else the one with the best rank
// (the smallest sites.rank; ranked before unranked), else the first host
// in byte order. The rule looks only at hosts and ranks, not at what the
// site answered: the domain's robots.txt is the one its main host serves.
// Sites without a registered domain (IP addresses, public suffixes) have
// no row.
type DomainRow struct {
	// Crawl of the sites; NULL when unknown. Also the Hive partition key.
	Crawl string `parquet:"crawl,optional,dict"`
	// The crawl's date (sites.crawl_date).
	CrawlDate int32 `parquet:"crawl_date,date,optional"`
	// Registered domain (eTLD+1 by the public suffix list), as in sites.
	RegisteredDomain string `parquet:"registered_domain,dict"`
	// Host of the site that stands for the domain (join sites and
	// site_bots on crawl and host).
	Host string `parquet:"host,dict"`
	// Sites of the crawl whose registered domain this is.
	Hosts int32 `parquet:"hosts"`
}

func (r DomainRow) crawl() string { return r.Crawl }
