package stats

import "github.com/robotstat/robotstat/schema"

// StatusClass maps an HTTP status to Common Crawl's class, as
// fetch_status_classify in commoncrawl/robotstxt-experiments
// (src/script/get_robotstxt_ranked_list.py) does, test for test and in the
// same order: 200 success; 403 forbidden; 5xx and 429 defer_visits (Common
// Crawl's crawler postpones the site); 3xx redirect; 404, 410 and 400
// notfound; 401 unauthorized; anything else (other 2xx and 4xx, 1xx, and 0
// for a source without a status) other.
func StatusClass(status int) string {
	switch {
	case status == 200:
		return schema.StatusClassSuccess
	case status == 403:
		return schema.StatusClassForbidden
	case status >= 500 && status <= 599, status == 429:
		return schema.StatusClassDeferVisits
	case status >= 300 && status < 400:
		return schema.StatusClassRedirect
	case status == 404, status == 410, status == 400:
		return schema.StatusClassNotFound
	case status == 401:
		return schema.StatusClassUnauthorized
	}
	return schema.StatusClassOther
}
