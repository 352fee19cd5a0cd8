package report

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/robotstat/robotstat/report/reporttest"
	"github.com/robotstat/robotstat/stats"
)

// The HTML page is read back with an HTML5 parser (golang.org/x/net/html),
// not with the code that wrote it.

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasClass(n *html.Node, class string) bool {
	for _, c := range strings.Fields(attr(n, "class")) {
		if c == class {
			return true
		}
	}
	return false
}

// find returns every element below n (n included) for which match holds,
// in document order.
func find(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && match(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func byID(t *testing.T, root *html.Node, id string) *html.Node {
	t.Helper()
	ns := find(root, func(n *html.Node) bool { return attr(n, "id") == id })
	if len(ns) != 1 {
		t.Fatalf("%d elements with id %q", len(ns), id)
	}
	return ns[0]
}

func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.TrimSpace(b.String())
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return v
}

// pct reads a printed share ("12.3%") as a fraction.
func pct(t *testing.T, s string) float64 {
	t.Helper()
	return num(t, strings.TrimSuffix(s, "%")) / 100
}

// htmlCells returns the count and share cells of a table's rows, as
// printed.
func htmlCells(table *html.Node) [][]string {
	var rows [][]string
	for _, tr := range find(table, func(n *html.Node) bool { return n.Data == "tr" }) {
		var cells []string
		for _, td := range find(tr, func(n *html.Node) bool { return n.Data == "td" && hasClass(n, "n") }) {
			cells = append(cells, text(td)+" "+text(td.NextSibling))
		}
		if len(cells) > 0 {
			rows = append(rows, cells)
		}
	}
	return rows
}

func TestReportHTML(t *testing.T) {
	dir := fixtureDir(t)
	page := filepath.Join(t.TempDir(), "report.html")
	out := renderHTML(t, dir, page)
	f, err := os.Open(page)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	root, err := html.Parse(f)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("self_contained", func(t *testing.T) {
		for _, n := range find(root, func(*html.Node) bool { return true }) {
			switch n.Data {
			case "script", "link", "img", "iframe", "object", "embed", "audio", "video", "source", "base", "use", "image", "foreignObject":
				t.Errorf("element <%s> in a self-contained page", n.Data)
			case "style":
				if css := text(n); strings.Contains(css, "url(") || strings.Contains(css, "@import") || strings.Contains(css, "@font-face") {
					t.Error("style sheet loads something")
				}
			}
			for _, a := range n.Attr {
				switch {
				case a.Key == "href" && !strings.HasPrefix(a.Val, "#"):
					t.Errorf("<%s href=%q> leaves the page", n.Data, a.Val)
				case a.Key == "src" || a.Key == "srcset" || a.Key == "action" || a.Key == "xlink:href" || strings.HasPrefix(a.Key, "on"):
					t.Errorf("<%s %s=%q>", n.Data, a.Key, a.Val)
				case a.Key == "style" && strings.Contains(a.Val, "url("):
					t.Errorf("<%s style=%q>", n.Data, a.Val)
				}
			}
		}
		b, _ := os.ReadFile(page)
		if strings.Contains(string(b), "http://") || strings.Contains(string(b), "https://") {
			t.Error("the page mentions an http(s) URL")
		}
	})

	aiTable := byID(t, root, "t-ai-blocking")
	var aiBots []string
	var aiLast []string // share in the last crawl, as printed
	for _, tr := range find(aiTable, func(n *html.Node) bool { return n.Data == "tr" }) {
		tds := find(tr, func(n *html.Node) bool { return n.Data == "td" })
		if len(tds) == 0 {
			continue
		}
		aiBots = append(aiBots, text(tds[0]))
		aiLast = append(aiLast, text(tds[len(tds)-1]))
	}
	var catalogAI int
	for _, b := range stats.DefaultCatalog().Bots() {
		if strings.HasPrefix(b.Category, "ai-") {
			catalogAI++
		}
	}
	if len(aiBots) != catalogAI {
		t.Fatalf("AI table has %d bots, the catalog %d", len(aiBots), catalogAI)
	}

	t.Run("bar_chart", func(t *testing.T) {
		for _, id := range []string{"svg-ai-blocking", "svg-ai-blocking-narrow"} {
			svg := byID(t, root, id)
			if svg.Data != "svg" || attr(svg, "data-group") != reporttest.Crawls[len(reporttest.Crawls)-1] {
				t.Fatalf("#%s is <%s> for %q", id, svg.Data, attr(svg, "data-group"))
			}
			bars := find(svg, func(n *html.Node) bool { return n.Data == "g" && hasClass(n, "bar") })
			if len(bars) != catalogAI {
				t.Fatalf("%s: %d bars, want one per AI bot (%d)", id, len(bars), catalogAI)
			}
			// One bar per AI bot in the table's order, each as wide as its
			// share (named plus * parts) on one common scale, and the share
			// the one the table prints.
			scale := 0.0
			for i, g := range bars {
				if bot := attr(g, "data-bot"); bot != aiBots[i] {
					t.Errorf("bar %d is %s, table row %d is %s", i, bot, i, aiBots[i])
				}
				share := num(t, attr(g, "data-share"))
				if d := math.Abs(share - pct(t, aiLast[i])); d > 0.0005 {
					t.Errorf("%s: bar share %.4f, table says %s", aiBots[i], share, aiLast[i])
				}
				var width float64
				for _, r := range find(g, func(n *html.Node) bool { return n.Data == "rect" }) {
					width += num(t, attr(r, "width"))
				}
				if share == 0 {
					if width > 0.1 {
						t.Errorf("%s: zero share drawn %.1f wide", aiBots[i], width)
					}
					continue
				}
				if scale == 0 {
					scale = width / share
				}
				if math.Abs(width-share*scale) > 0.15 {
					t.Errorf("%s: bar %.1f wide, %.1f for its share on the common scale", aiBots[i], width, share*scale)
				}
			}
		}
	})

	t.Run("line_charts", func(t *testing.T) {
		figs := find(root, func(n *html.Node) bool { return n.Data == "figure" && hasClass(n, "trend") })
		if len(figs) < 5 {
			t.Fatalf("%d trend charts", len(figs))
		}
		drawn := map[string]bool{}
		var gpt *html.Node
		for _, fg := range figs {
			if b := attr(fg, "data-bot"); b != "" {
				drawn[b] = true
				if b == "GPTBot" {
					gpt = fg
				}
			}
			for _, b := range strings.Split(attr(fg, "data-bots"), ",") {
				drawn[b] = true
			}
			lines := find(fg, func(n *html.Node) bool { return n.Data == "polyline" })
			if len(lines) != NumDefinitions {
				t.Errorf("%s: %d lines, want one per definition", attr(fg, "data-bot"), len(lines))
			}
			for _, l := range lines {
				if n := len(strings.Fields(attr(l, "points"))); n != len(reporttest.Crawls) {
					t.Errorf("%s %s: %d points, want one per crawl", attr(fg, "data-bot"), attr(l, "class"), n)
				}
			}
		}
		for _, b := range aiBots {
			if !drawn[b] {
				t.Errorf("no trend chart covers %s", b)
			}
		}
		if gpt == nil {
			t.Fatal("no GPTBot chart")
		}
		// The robotstat line is the GPTBot row of the AI table, crawl by
		// crawl.
		var row []*html.Node
		for _, tr := range find(aiTable, func(n *html.Node) bool { return n.Data == "tr" }) {
			if tds := find(tr, func(n *html.Node) bool { return n.Data == "td" }); len(tds) > 0 && text(tds[0]) == "GPTBot" {
				row = find(tr, func(n *html.Node) bool { return n.Data == "td" && hasClass(n, "p") })
			}
		}
		verdict := find(gpt, func(n *html.Node) bool { return hasClass(n, "def-verdict") })
		vals := strings.Split(attr(verdict[0], "data-values"), ",")
		if len(vals) != len(row) {
			t.Fatalf("GPTBot line has %d values, the table row %d", len(vals), len(row))
		}
		for i := range vals {
			if d := math.Abs(num(t, vals[i]) - pct(t, text(row[i]))); d > 0.0005 {
				t.Errorf("GPTBot crawl %d: line %s, table %s", i, vals[i], text(row[i]))
			}
		}
	})

	t.Run("status_chart", func(t *testing.T) {
		rows := find(byID(t, root, "svg-status"), func(n *html.Node) bool { return n.Data == "g" && hasClass(n, "status-row") })
		if len(rows) != len(reporttest.Crawls) {
			t.Fatalf("%d status rows, want one per crawl", len(rows))
		}
		for _, g := range rows {
			var total float64
			parts := map[string]float64{}
			for _, r := range find(g, func(n *html.Node) bool { return n.Data == "rect" }) {
				w := num(t, attr(r, "width"))
				parts[attr(r, "class")] += w
				total += w
			}
			// The parsed part's width is the parsed share of sites, which
			// the adoption table gives as the sum of its first two rows.
			crawl := attr(g, "data-group")
			col := -1
			for i, c := range reporttest.Crawls {
				if c == crawl {
					col = i
				}
			}
			cells := htmlCells(byID(t, root, "t-adoption"))
			p1 := strings.Fields(cells[0][col])
			p2 := strings.Fields(cells[1][col])
			if got, want := parts["parsed"]/total, pct(t, p1[1])+pct(t, p2[1]); math.Abs(got-want) > 0.0011 {
				t.Errorf("%s: parsed is %.4f of the bar, the adoption table says %.4f", crawl, got, want)
			}
		}
	})

	t.Run("tables_match_text", func(t *testing.T) {
		textTables := parseTextTables(out)
		tables := find(root, func(n *html.Node) bool { return n.Data == "table" && hasClass(n, "data") })
		if len(tables) != 9 {
			t.Errorf("%d tables, want 9", len(tables))
		}
		for _, tb := range tables {
			sec := tb
			for sec != nil && sec.Data != "section" {
				sec = sec.Parent
			}
			title := text(find(sec, func(n *html.Node) bool { return n.Data == "h2" })[0])
			tt := textTables[title]
			if tt == nil {
				t.Errorf("table %q is not in the text report", title)
				continue
			}
			hrows := htmlCells(tb)
			if len(hrows) != len(tt.rows) {
				t.Errorf("%s: %d rows in HTML, %d in text", title, len(hrows), len(tt.rows))
				continue
			}
			for i := range hrows {
				if strings.Join(hrows[i], " | ") != strings.Join(tt.rows[i].cells, " | ") {
					t.Errorf("%s row %d:\nHTML %v\ntext %v", title, i, hrows[i], tt.rows[i].cells)
				}
			}
		}
	})
}

// The page escapes what comes from the data: a crawl name with markup in it
// stays text.
func TestReportHTMLEscapes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := reporttest.WriteSites(dir, []reporttest.Site{
		{Crawl: `<script>alert(1)</script>`, URL: "https://a.example/robots.txt", Status: 200, Body: "User-agent: <b>x</b>\nDisallow: /\n"},
		{Crawl: `x" onload="y`, URL: "https://b.example/robots.txt", Status: 200, Body: "User-agent: GPTBot\nDisallow: /\n"},
	}, fixtureVersion); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "r.html")
	renderHTML(t, dir, page)
	b, _ := os.ReadFile(page)
	root, err := html.Parse(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if s := find(root, func(n *html.Node) bool { return n.Data == "script" || n.Data == "b" }); len(s) > 0 {
		t.Errorf("data became markup: <%s>", s[0].Data)
	}
	for _, n := range find(root, func(*html.Node) bool { return true }) {
		for _, a := range n.Attr {
			if strings.HasPrefix(a.Key, "on") {
				t.Errorf("data became an attribute: %s=%q", a.Key, a.Val)
			}
		}
	}
	if !strings.Contains(string(b), "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("crawl name not shown escaped")
	}
}
