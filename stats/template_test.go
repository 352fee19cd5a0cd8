package stats

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/schema"
)

// templateOf runs the embedded fingerprints on body.
func templateOf(t testing.TB, body []byte) string {
	t.Helper()
	a, err := NewAnalyzer(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var rows schema.Batch
	a.Analyze(captureOf(body, 200), &rows)
	return rows.Captures[0].Template
}

func TestTemplatesSynthetic(t *testing.T) {
	// Each body is a platform default as the platform documents or
	// generates it, sometimes with a site's additions.
	tests := []struct{ name, body, want string }{
		{"wordpress_core", "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\nSitemap: https://example.com/wp-sitemap.xml\n", "wordpress"},
		{"wordpress_crlf_with_additions", "User-agent: *\r\nDisallow: /wp-admin/\r\nAllow: /wp-admin/admin-ajax.php\r\nDisallow: /private/\r\n\r\nUser-agent: GPTBot\r\nDisallow: /\r\n", "wordpress"},
		{"wordpress_only_half", "User-agent: *\nDisallow: /wp-admin/\n", ""},
		{"wordpress_rules_for_other_agent", "User-agent: Googlebot\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n", ""},
		{"blogger", "User-agent: Mediapartners-Google\nDisallow: \n\nUser-agent: *\nDisallow: /search\nAllow: /\n\nSitemap: https://example.blogspot.com/sitemap.xml\n", "blogger"},
		{"wix", "# By Wix\nUser-agent: *\nAllow: /\n\n# Optimization for Google Ads Bot\nUser-agent: AdsBot-Google-Mobile\nUser-agent: AdsBot-Google\nDisallow: /_api/*\nDisallow: /_partials*\nDisallow: /pro-gallery-webapp/v1/galleries/*\n\n# Block PetalBot\nUser-agent: PetalBot\nDisallow: /\n\nSitemap: https://www.example.com/sitemap.xml\n", "wix"},
		{"ghost", "User-agent: *\nSitemap: https://example.com/sitemap.xml\nDisallow: /ghost/\nDisallow: /email/\nDisallow: /members/api/comments/counts/\nDisallow: /r/\nDisallow: /webmentions/receive/\n", "ghost"},
		{"cloudflare_managed_with_content_signal", "# As a condition of accessing this website, you agree to abide by the following\n# content signals:\nUser-Agent: *\nContent-Signal: search=yes,ai-train=no\nAllow: /\n\nUser-agent: Amazonbot\nDisallow: /\n\nUser-agent: Applebot-Extended\nDisallow: /\n\nUser-agent: Bytespider\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: ClaudeBot\nDisallow: /\n\nUser-agent: Google-Extended\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: meta-externalagent\nDisallow: /\n", "cloudflare-managed"},
		{"cloudflare_content_signals_only", "User-Agent: *\nContent-Signal: search=yes,ai-train=no\nAllow: /\n", "cloudflare-content-signals"},
		{"cloudflare_block_stacked_is_not_cloudflare", "User-agent: Amazonbot\nUser-agent: Applebot-Extended\nUser-agent: Bytespider\nUser-agent: CCBot\nUser-agent: ClaudeBot\nUser-agent: Google-Extended\nUser-agent: GPTBot\nUser-agent: meta-externalagent\nDisallow: /\n", ""},
		{"cloudflare_block_reordered_is_not_cloudflare", "User-agent: GPTBot\nDisallow: /\nUser-agent: Amazonbot\nDisallow: /\nUser-agent: Applebot-Extended\nDisallow: /\nUser-agent: Bytespider\nDisallow: /\nUser-agent: CCBot\nDisallow: /\nUser-agent: ClaudeBot\nDisallow: /\nUser-agent: Google-Extended\nDisallow: /\nUser-agent: meta-externalagent\nDisallow: /\n", ""},
		{"ghost_needs_two", "User-agent: *\nDisallow: /ghost/\n", ""},
		{"empty", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := templateOf(t, []byte(tc.body)); got != tc.want {
				t.Errorf("template = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestTemplatesRealFiles(t *testing.T) {
	want := map[string]string{
		"www.atv-quad-magazin.com-robots.txt":    "wordpress",
		"de.dreametech.com-robots.txt":           "shopify",
		"www.agrarheute.com-robots.txt":          "drupal",
		"www.abda.de-robots.txt":                 "typo3",
		"www.businessandmore.de-robots.txt":      "joomla",
		"www.burdastyle.de-robots.txt":           "magento",
		"www.fondazionecapellino.org-robots.txt": "hubspot",
		"www.boehme-zeitung.de-robots.txt":       "squarespace",
		"www.it-times.de-robots.txt":             "cloudflare-managed",
		"www.tagesschau.de-robots.txt":           "",
		"www.garmin.com-robots.txt":              "",
		"www.areamobile.de-robots.txt":           "",
	}
	for name, tmpl := range want {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("..", "testdata", "avuim", name))
			if err != nil {
				t.Fatal(err)
			}
			if got := templateOf(t, b); got != tmpl {
				t.Errorf("template = %q, want %q", got, tmpl)
			}
		})
	}
}

// TestTemplatesSharedCorpus counts matches over the 1,347 real files of the
// shared corpus; the counts are what stats/README.md reports, so a change to
// templates.json that moves them must update the README.
func TestTemplatesSharedCorpus(t *testing.T) {
	a, _ := NewAnalyzer(DefaultOptions())
	got := map[string]int{}
	analyzeFiles(t, a, avuimFiles(t), func(_ string, rows *schema.Batch) {
		if tm := rows.Captures[0].Template; tm != "" {
			got[tm]++
		}
	})
	want := map[string]int{"cloudflare-managed": 3, "drupal": 80, "hubspot": 1, "joomla": 7, "magento": 2,
		"shopify": 6, "squarespace": 1, "typo3": 40, "wordpress": 49}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %d files, want %d", k, got[k], v)
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: %d unexpected files", k, v)
		}
	}
}

func TestReadTemplatesErrors(t *testing.T) {
	tests := []struct{ name, json string }{
		{"not_json", "x"},
		{"wrong_format", `{"format":"x","version":"1","templates":[]}`},
		{"no_templates", `{"format":"robotstat-templates","version":"1","templates":[]}`},
		{"bad_agent", `{"format":"robotstat-templates","version":"1","templates":[{"name":"a","all":[["Mozilla/5.0","disallow","/"]]}]}`},
		{"bad_directive", `{"format":"robotstat-templates","version":"1","templates":[{"name":"a","all":[["*","noindex","/"]]}]}`},
		{"min_any_too_big", `{"format":"robotstat-templates","version":"1","templates":[{"name":"a","any":[["*","allow","/"]],"min_any":2}]}`},
		{"dup_name", `{"format":"robotstat-templates","version":"1","templates":[{"name":"a","all":[["*","allow","/"]]},{"name":"a","all":[["*","allow","/"]]}]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ReadTemplates(strings.NewReader(tc.json)); err == nil {
				t.Error("no error")
			}
		})
	}
	if n := len(DefaultTemplates().Names()); n < 12 {
		t.Errorf("%d templates", n)
	}
}
