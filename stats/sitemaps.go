package stats

import "github.com/robotstat/robotstat/schema"

// sitemapRows appends one sitemaps row per Sitemap line.
func (a *Analyzer) sitemapRows(k *capture, dst *schema.Batch) {
	for _, s := range a.col.sitemaps {
		dst.Sitemaps = append(dst.Sitemaps, schema.SitemapRow{Key: k.key, Line: s.line, SitemapURL: s.url})
	}
}
