package report

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/robotstat/robotstat/report/reporttest"
)

// The HTML page is read back with an HTML5 parser (golang.org/x/net/html),
// not with the code that wrote it.

func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasClass(n *html.Node, class string) bool {
	for _, c := range strings.Fields(attrOf(n, "class")) {
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
	ns := find(root, func(n *html.Node) bool { return attrOf(n, "id") == id })
	if len(ns) != 1 {
		t.Fatalf("%d elements with id %q", len(ns), id)
	}
	return ns[0]
}

func textOf(n *html.Node) string {
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

// htmlCells returns the cells of a table's rows as printed: count, share
// and, when the share has one, its interval (with ! for n < 100).
func htmlCells(table *html.Node) [][]string {
	var rows [][]string
	for _, tr := range find(table, func(n *html.Node) bool { return n.Data == "tr" }) {
		var cells []string
		for _, td := range find(tr, func(n *html.Node) bool { return n.Data == "td" && hasClass(n, "n") }) {
			cell := textOf(td) + " " + textOf(td.NextSibling)
			if ci := td.NextSibling.NextSibling; ci != nil && hasClass(ci, "ci") && textOf(ci) != "" {
				cell += " " + textOf(ci)
			}
			cells = append(cells, cell)
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
				if css := textOf(n); strings.Contains(css, "url(") || strings.Contains(css, "@import") || strings.Contains(css, "@font-face") {
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

	// The AI table's rows, by bot: its cells per crawl in date order.
	aiRows := map[string][][]string{} // bot -> rows -> cells as printed
	cur := ""
	for _, tr := range find(byID(t, root, "t-ai-blocking"), func(n *html.Node) bool { return n.Data == "tr" }) {
		tds := find(tr, func(n *html.Node) bool { return n.Data == "td" && hasClass(n, "l") })
		if len(tds) == 0 {
			continue
		}
		if b := textOf(tds[0]); b != "" {
			cur = b
		}
		var shares []string
		for _, td := range find(tr, func(n *html.Node) bool { return n.Data == "td" && hasClass(n, "p") }) {
			shares = append(shares, textOf(td))
		}
		aiRows[cur] = append(aiRows[cur], shares)
	}
	d := readFixture(t, dir, TallyOptions{})
	r := d.Report

	t.Run("switches", func(t *testing.T) {
		for _, id := range []string{"pop-all", "pop-panel", "st-pooled", "st-strata"} {
			in := byID(t, root, id)
			if in.Data != "input" || attrOf(in, "type") != "radio" {
				t.Errorf("#%s is <%s type=%s>", id, in.Data, attrOf(in, "type"))
			}
			if len(find(root, func(n *html.Node) bool { return n.Data == "label" && attrOf(n, "for") == id })) != 1 {
				t.Errorf("no label for #%s", id)
			}
		}
		for _, id := range []string{"pop-all", "st-pooled"} {
			if !hasAttr(byID(t, root, id), "checked") {
				t.Errorf("#%s is not checked: the page opens on all sites, pooled", id)
			}
		}
		// Every switchable chart has its variants: lead 2 × 2, categories
		// and first blocks 2 each.
		for _, c := range []struct {
			section string
			classes []string
		}{
			{"chart-lead", []string{"v-all v-pooled", "v-panel v-pooled", "v-all v-strata", "v-panel v-strata"}},
			{"chart-categories", []string{"v-all v-any", "v-panel v-any"}},
			{"chart-first-blocks", []string{"v-all v-any", "v-panel v-any"}},
		} {
			var got []string
			for _, v := range find(byID(t, root, c.section), func(n *html.Node) bool { return hasClass(n, "variant") }) {
				got = append(got, strings.TrimPrefix(attrOf(v, "class"), "variant "))
			}
			if strings.Join(got, "|") != strings.Join(c.classes, "|") {
				t.Errorf("%s variants %v, want %v", c.section, got, c.classes)
			}
		}
	})

	variant := func(t *testing.T, section, class string) *html.Node {
		t.Helper()
		for _, v := range find(byID(t, root, section), func(n *html.Node) bool { return hasClass(n, "variant") }) {
			if attrOf(v, "class") == "variant "+class {
				return v
			}
		}
		t.Fatalf("%s has no variant %q", section, class)
		return nil
	}

	t.Run("lead_chart", func(t *testing.T) {
		// One panel per leading AI bot and one for every other AI bot; each
		// panel's total, by-name and by-* series are the AI table's full,
		// by name and by * shares, crawl by crawl, and every point sits at
		// its crawl's date.
		v := variant(t, "chart-lead", "v-all v-pooled")
		figs := find(v, func(n *html.Node) bool { return n.Data == "figure" && hasClass(n, "trend") })
		if len(figs) != len(r.Leading)+1 {
			t.Fatalf("%d panels, want %d leading bots and one for the rest", len(figs), len(r.Leading))
		}
		for k, fg := range figs {
			bot := attrOf(fg, "data-bot")
			rows := aiRows[bot]
			if k == len(figs)-1 {
				if attrOf(fg, "data-bots") == "" {
					t.Error("the last panel does not list the bots it stands for")
				}
				rows = aiRows[r.starOnlyLabel()]
			}
			if len(rows) != len(reporttest.Crawls) {
				t.Fatalf("%s: %d table rows", bot, len(rows))
			}
			for cls, col := range map[string]int{"total": 0, "named": 1, "star": 2} {
				el := find(fg, func(n *html.Node) bool { return hasClass(n, cls) })
				if len(el) != 1 {
					t.Fatalf("%s: %d .%s elements", bot, len(el), cls)
				}
				vals := strings.Split(attrOf(el[0], "data-values"), ",")
				for i, row := range rows {
					if d := math.Abs(num(t, vals[i]) - pct(t, row[col])); d > 0.0005 {
						t.Errorf("%s %s crawl %d: chart %s, table %s", bot, cls, i, vals[i], row[col])
					}
				}
			}
			// x of the points: proportional to the crawls' dates.
			pts := strings.Fields(attrOf(find(fg, func(n *html.Node) bool { return hasClass(n, "total") })[0], "points"))
			var xs []float64
			for _, p := range pts {
				xs = append(xs, num(t, strings.Split(p, ",")[0]))
			}
			cr := r.Trend.Crawls
			for i := 1; i < len(cr)-1; i++ {
				want := xs[0] + (xs[len(xs)-1]-xs[0])*float64(cr[i].Date-cr[0].Date)/float64(cr[len(cr)-1].Date-cr[0].Date)
				if math.Abs(xs[i]-want) > 0.15 {
					t.Errorf("%s: point %d at x %.1f, its date puts it at %.1f", bot, i, xs[i], want)
				}
			}
			if texts := textOf(fg); !strings.Contains(texts, "crawl date") || !strings.Contains(texts, "% of parsed sites") {
				t.Errorf("%s: no axis titles", bot)
			}
		}
	})

	t.Run("lead_chart_intervals", func(t *testing.T) {
		// Every point of every lead card has whiskers whose bounds are the
		// AI table's interval of the full share, n under each crawl is the
		// crawl's parsed sites, and the card's headline names the last
		// crawl with its interval.
		intervals := map[string][]string{} // bot -> the full column's printed interval per crawl
		cur := ""
		for _, tr := range find(byID(t, root, "t-ai-blocking"), func(n *html.Node) bool { return n.Data == "tr" }) {
			tds := find(tr, func(n *html.Node) bool { return n.Data == "td" && hasClass(n, "l") })
			if len(tds) == 0 {
				continue
			}
			if b := textOf(tds[0]); b != "" {
				cur = b
			}
			cis := find(tr, func(n *html.Node) bool { return n.Data == "td" && hasClass(n, "ci") })
			intervals[cur] = append(intervals[cur], textOf(cis[0]))
		}
		v := variant(t, "chart-lead", "v-all v-pooled")
		lastCrawl := r.Trend.Crawls[len(r.Trend.Crawls)-1]
		for _, fg := range find(v, func(n *html.Node) bool { return n.Data == "figure" && hasClass(n, "trend") }) {
			bot := attrOf(fg, "data-bot")
			if bot == "" {
				bot = r.starOnlyLabel()
			}
			ci := find(fg, func(n *html.Node) bool { return n.Data == "g" && hasClass(n, "ci") })
			if len(ci) != len(reporttest.Crawls) || len(intervals[bot]) != len(ci) {
				t.Fatalf("%s: %d whiskers, %d table rows, want one per crawl", bot, len(ci), len(intervals[bot]))
			}
			for i, w := range ci {
				lo, hi := num(t, attrOf(w, "data-lo")), num(t, attrOf(w, "data-hi"))
				got := "[" + strconv.FormatFloat(100*lo, 'f', 1, 64) + "-" + strconv.FormatFloat(100*hi, 'f', 1, 64) + "]"
				if got != intervals[bot][i] {
					t.Errorf("%s crawl %d: whisker %s, table %s", bot, i, got, intervals[bot][i])
				}
				if len(find(w, func(n *html.Node) bool { return n.Data == "line" })) != 3 {
					t.Errorf("%s crawl %d: a whisker is a line and two caps", bot, i)
				}
			}
			var ns []string
			for _, n := range find(fg, func(n *html.Node) bool { return n.Data == "text" && hasClass(n, "n") }) {
				ns = append(ns, textOf(n))
			}
			if len(ns) < 2 {
				t.Errorf("%s: n under %d crawls", bot, len(ns))
			}
			for _, n := range ns {
				found := false
				for _, g := range r.Groups {
					found = found || n == "n="+formatCount(g.Parsed)
				}
				if !found {
					t.Errorf("%s: %q is no crawl's parsed sites", bot, n)
				}
			}
			head := find(fg, func(n *html.Node) bool { return n.Data == "p" && hasClass(n, "head") })
			if len(head) != 1 || !strings.Contains(textOf(head[0]), "in "+lastCrawl.Label) ||
				!strings.Contains(textOf(head[0]), strings.Trim(intervals[bot][len(ci)-1], "[]")+"%") {
				t.Errorf("%s: headline %v does not name %s and its interval %s", bot, head, lastCrawl.Label, intervals[bot][len(ci)-1])
			}
			last := find(fg, func(n *html.Node) bool { return n.Data == "span" && hasClass(n, "last") })
			if len(last) != 1 || !strings.HasSuffix(textOf(last[0]), ", n="+formatCount(r.Groups[len(r.Groups)-1].Parsed)) {
				t.Errorf("%s: card figure %v without its n", bot, last)
			}
		}
	})

	t.Run("strata_chart", func(t *testing.T) {
		v := variant(t, "chart-lead", "v-all v-strata")
		fg := find(v, func(n *html.Node) bool { return n.Data == "figure" && attrOf(n, "data-bot") == "GPTBot" })
		if len(fg) != 1 {
			t.Fatal("no GPTBot panel by stratum")
		}
		gpt := -1
		for i, b := range r.Bots {
			if b.Bot == "GPTBot" {
				gpt = i
			}
		}
		for _, l := range find(fg[0], func(n *html.Node) bool { return n.Data == "polyline" && hasClass(n, "series") }) {
			st := slices.Index(StratumNames[:], attrOf(l, "data-series"))
			if attrOf(l, "data-series") == "all ranks" {
				st = StratumAll
			}
			if st < 0 {
				t.Fatalf("series %q", attrOf(l, "data-series"))
			}
			vals := strings.Split(attrOf(l, "data-values"), ",")
			for i, p := range r.Trend.Points[PopAll][st] {
				bc := p.Bot(gpt)
				want, _ := fullCell(&bc, DefVerdict).Share()
				if math.Abs(num(t, vals[i])-want) > 1e-6 {
					t.Errorf("%s crawl %d: %s, want %.6f", StratumNames[st], i, vals[i], want)
				}
			}
		}
	})

	t.Run("first_blocks_chart", func(t *testing.T) {
		v := variant(t, "chart-first-blocks", "v-all v-any")
		fg := find(v, func(n *html.Node) bool { return n.Data == "figure" && attrOf(n, "data-bot") == "GPTBot" })
		if len(fg) != 1 {
			t.Fatal("no GPTBot first-block panel")
		}
		bars := find(fg[0], func(n *html.Node) bool { return n.Data == "g" && hasClass(n, "cohort") })
		rows := htmlCells(byID(t, root, "t-first-blocks"))
		// the GPTBot block: first blocked, by name, later unblocked
		for i, b := range bars {
			first := strings.Fields(rows[0][i])[0]
			unblocked := strings.Fields(rows[2][i])[0]
			if attrOf(b, "data-first") != first || attrOf(b, "data-unblocked") != unblocked {
				t.Errorf("crawl %d: bar %s/%s, table %s/%s", i, attrOf(b, "data-first"), attrOf(b, "data-unblocked"), first, unblocked)
			}
		}
		if len(bars) != len(reporttest.Crawls) {
			t.Errorf("%d bars", len(bars))
		}
	})

	t.Run("definitions_chart", func(t *testing.T) {
		// Each bar is the definition's full share minus the verdict's, in
		// the last crawl: the definitions table's last row of the bot.
		var last []string
		cur := ""
		for _, tr := range find(byID(t, root, "t-definitions"), func(n *html.Node) bool { return n.Data == "tr" }) {
			tds := find(tr, func(n *html.Node) bool { return n.Data == "td" && hasClass(n, "l") })
			if len(tds) > 0 && textOf(tds[0]) != "" {
				cur = textOf(tds[0])
			}
			if cur == "GPTBot" {
				last = nil
				for _, td := range find(tr, func(n *html.Node) bool { return n.Data == "td" && hasClass(n, "p") }) {
					last = append(last, textOf(td))
				}
			}
		}
		g := find(byID(t, root, "svg-definitions"), func(n *html.Node) bool { return n.Data == "g" && attrOf(n, "data-bot") == "GPTBot" })
		if len(g) != 1 || len(last) != NumDefinitions {
			t.Fatalf("%d GPTBot bars, definitions row %v", len(g), last)
		}
		diffs := strings.Split(attrOf(g[0], "data-diffs"), ",")
		for k, dv := range diffs {
			if d := math.Abs(num(t, dv) - (pct(t, last[k+1]) - pct(t, last[0]))); d > 0.0011 {
				t.Errorf("%s: %s, table %s - %s", DefinitionNames[k+1], dv, last[k+1], last[0])
			}
		}
	})

	t.Run("share_charts", func(t *testing.T) {
		adoption := htmlCells(byID(t, root, "t-adoption"))
		rules := byID(t, root, "t-signals-vs-rules")
		for _, c := range []struct{ id, part string }{{"svg-status", "parsed"}, {"svg-signals", "contradict"}} {
			rows := find(byID(t, root, c.id), func(n *html.Node) bool { return n.Data == "g" && hasClass(n, "share-row") })
			if len(rows) != len(reporttest.Crawls) {
				t.Fatalf("%s: %d rows, want one per crawl", c.id, len(rows))
			}
			for col, g := range rows {
				var total float64
				parts := map[string]float64{}
				for _, rc := range find(g, func(n *html.Node) bool { return n.Data == "rect" }) {
					w := num(t, attrOf(rc, "width"))
					parts[attrOf(rc, "class")] += w
					total += w
				}
				var want float64
				switch c.id {
				case "svg-status":
					// parsed: the adoption table's first two rows
					want = pct(t, strings.Fields(adoption[0][col])[1]) + pct(t, strings.Fields(adoption[1][col])[1])
				default:
					// contradict: allowed × every one and allowed × some
					want = crossShare(t, rules, "allowed", "contradict", col) + crossShare(t, rules, "allowed", "contradict in part", col)
				}
				if got := parts[c.part] / total; math.Abs(got-want) > 0.0011 {
					t.Errorf("%s %s: %s is %.4f of the bar, the table says %.4f", c.id, attrOf(g, "data-group"), c.part, got, want)
				}
			}
		}
	})

	t.Run("tables_match_text", func(t *testing.T) {
		textTables := parseTextTables(out)
		tables := find(root, func(n *html.Node) bool { return n.Data == "table" && hasClass(n, "data") })
		if len(tables) != len(r.Tables) || len(tables) < 13 {
			t.Errorf("%d tables, the report has %d", len(tables), len(r.Tables))
		}
		for _, tb := range tables {
			sec := tb
			for sec != nil && sec.Data != "section" {
				sec = sec.Parent
			}
			title := textOf(find(sec, func(n *html.Node) bool { return n.Data == "h2" })[0])
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

// crossShare returns the share in column col of the signals-vs-rules row
// whose stance is stance and reading reading (0 when the table has none).
func crossShare(t *testing.T, table *html.Node, stance, reading string, col int) float64 {
	t.Helper()
	cur := ""
	for _, tr := range find(table, func(n *html.Node) bool { return n.Data == "tr" }) {
		tds := find(tr, func(n *html.Node) bool { return n.Data == "td" && hasClass(n, "l") })
		if len(tds) < 3 {
			continue
		}
		if s := textOf(tds[0]); s != "" {
			cur = s
		}
		if cur == stance && textOf(tds[2]) == reading {
			p := find(tr, func(n *html.Node) bool { return n.Data == "td" && hasClass(n, "p") })
			return pct(t, textOf(p[col]))
		}
	}
	return 0
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

// A report of one crawl draws the AI bots as bars, the rest as one bar,
// each as wide as its share on one common scale.
func TestReportHTMLOneCrawl(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	var sites []reporttest.Site
	for _, s := range threeSites() {
		path := s.path
		if path == "" {
			path = "/robots.txt"
		}
		sites = append(sites, reporttest.Site{Crawl: "CC-MAIN-2024-33", URL: "https://" + s.host + path, Status: s.status, Body: s.body, Rank: s.rank, Minute: s.minute})
	}
	if err := reporttest.WriteSites(dir, sites, fixtureVersion); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "r.html")
	renderHTML(t, dir, page)
	f, err := os.Open(page)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	root, err := html.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	r := readFixture(t, dir, TallyOptions{}).Report
	for _, id := range []string{"svg-ai-blocking", "svg-ai-blocking-narrow"} {
		bars := find(byID(t, root, id), func(n *html.Node) bool { return n.Data == "g" && hasClass(n, "bar") })
		if len(bars) != len(r.Named)+1 {
			t.Fatalf("%s: %d bars, want %d named AI bots and one for the rest", id, len(bars), len(r.Named))
		}
		scale := 0.0
		for _, g := range bars {
			share := num(t, attrOf(g, "data-share"))
			var width float64
			for _, rc := range find(g, func(n *html.Node) bool { return n.Data == "rect" }) {
				width += num(t, attrOf(rc, "width"))
			}
			if share == 0 {
				continue
			}
			if scale == 0 {
				scale = width / share
			}
			if math.Abs(width-share*scale) > 0.15 {
				t.Errorf("%s %s: bar %.1f wide, %.1f for its share", id, attrOf(g, "data-bot"), width, share*scale)
			}
		}
		if attrOf(bars[len(bars)-1], "data-bots") == "" {
			t.Errorf("%s: the last bar does not list the bots it stands for", id)
		}
	}
	// Fewer than 100 parsed sites: every share is flagged, in the bars
	// and in the tables, and the bars carry whiskers and n.
	for _, g := range find(byID(t, root, "svg-ai-blocking"), func(n *html.Node) bool { return n.Data == "g" && hasClass(n, "bar") }) {
		vals := find(g, func(n *html.Node) bool { return n.Data == "text" && hasClass(n, "value") })
		if len(vals) != 1 || !hasClass(vals[0], "warn") || !strings.Contains(textOf(vals[0]), " of 3!)") {
			t.Errorf("bar %s: value %v has no n < 100 warning or no n", attrOf(g, "data-bot"), vals)
		}
		share := num(t, attrOf(g, "data-share"))
		ci := find(g, func(n *html.Node) bool { return n.Data == "g" && hasClass(n, "ci") })
		if len(ci) != 1 || num(t, attrOf(ci[0], "data-lo")) > share || num(t, attrOf(ci[0], "data-hi")) < share {
			t.Errorf("bar %s: whiskers %v around share %v", attrOf(g, "data-bot"), ci, share)
		}
	}
	if low := find(byID(t, root, "t-ai-blocking"), func(n *html.Node) bool { return n.Data == "td" && hasClass(n, "low") }); len(low) == 0 {
		t.Error("no share flagged in the AI table of three parsed sites")
	}
	if !strings.Contains(textOf(byID(t, root, "ai-blocking")), lowNote) {
		t.Error("the AI table does not say what ! means")
	}
	// No switches and no time axis with one crawl.
	if n := find(root, func(n *html.Node) bool { return hasClass(n, "switches") || hasClass(n, "variant") }); len(n) != 0 {
		t.Errorf("%d switches or variants in a one-crawl page", len(n))
	}
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
