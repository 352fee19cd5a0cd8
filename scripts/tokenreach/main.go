// Command tokenreach measures what reading product tokens with their digits
// and non-ASCII letters (parse's Deviation_token_digits and
// Deviation_token_non_ascii, issue 21) does to every catalog bot's verdicts:
// it analyses each capture twice with stats.Analyzer and the bots table, as
// robotstat analyze does, once as robotstat reads tokens now and once as it
// read them before (every token cut at its first character that is not an
// ASCII letter, "_" or "-", in the file and in the catalog alike), and
// compares the six verdict columns (matched, root_allowed, verdict, somesite,
// cic, cc_class) bot by bot. The verdicts table and site_bots are the same
// tuples folded and resolved per site, so what changes here changes there.
//
// The old reading is reproduced, not kept as a mode: each user-agent value
// is overwritten in place by its old token padded with spaces (so no line
// moves across the parse limit; a value whose old token is empty becomes
// "/", which names none either) and each catalog token is cut the same way.
// A value and a token cut to letters read the same under both rules, so the
// second analysis is exactly the old one.
//
//	go run ./scripts/tokenreach                        # the embedded sample
//	go run ./scripts/tokenreach ../shared/corpus/robots # every file below, each a 200 answer
//
// A folder is walked and every file in it is read as one robots.txt served
// with status 200 (its URL is file: and its path), whatever its name; any
// other input is read as robotstat analyze reads it (a WARC, a dump).
//
// One CSV row per capture, bot and column that changed goes to stdout
// (url,bot,column,old,new); the summary to stderr.
package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/record"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/stats"
)

func main() {
	crawl := flag.String("crawl", "", "crawl name for inputs that have none (as analyze --crawl)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: tokenreach [--crawl NAME] [INPUT...]   (default: the embedded sample)")
		flag.PrintDefaults()
	}
	flag.Parse()
	inputs := flag.Args()
	if len(inputs) == 0 {
		inputs = []string{"internal/sample/robotstat-sample.warc.gz"}
	}
	if err := run(*crawl, inputs); err != nil {
		fmt.Fprintln(os.Stderr, "tokenreach:", err)
		os.Exit(2)
	}
}

type change struct {
	url, bot, column, old, new string
}

func run(crawl string, inputs []string) error {
	cat := stats.DefaultCatalog()
	oldCat, err := cutCatalog(cat)
	if err != nil {
		return err
	}
	opts := stats.DefaultOptions()
	opts.Tables = []schema.TableName{schema.Captures, schema.Bots}
	newA, err := stats.NewAnalyzer(opts)
	if err != nil {
		return err
	}
	opts.Catalog = oldCat
	oldA, err := stats.NewAnalyzer(opts)
	if err != nil {
		return err
	}
	var (
		mu       sync.Mutex
		changes  []change
		parsed   int
		captures int
		reread   int // parsed captures naming a token the two rules read apart
	)
	var newRows, oldRows schema.Batch
	consume := func(_ int, c *record.Capture) error {
		mu.Lock()
		defer mu.Unlock()
		captures++
		if parse.StatusOutcome(c.Status, parse.StatusOptions{}) != parse.OutcomeParsed {
			return nil
		}
		parsed++
		oldBody, differs := cutAgents(c.Body)
		if differs {
			reread++
		}
		newRows.Reset()
		oldRows.Reset()
		newA.Analyze(c, &newRows)
		old := *c
		old.Body = oldBody
		oldA.Analyze(&old, &oldRows)
		nb, ob := newRows.BotRows(), oldRows.BotRows()
		if len(nb) != len(ob) {
			return fmt.Errorf("%s: %d bots rows now, %d before", c.URL, len(nb), len(ob))
		}
		for i := range nb {
			for _, col := range columns {
				if n, o := col.get(&nb[i]), col.get(&ob[i]); n != o {
					changes = append(changes, change{c.URL, nb[i].Bot, col.name, o, n})
				}
			}
		}
		return nil
	}
	var others []string
	for _, in := range inputs {
		if st, err := os.Stat(in); err != nil || !st.IsDir() {
			others = append(others, in)
			continue
		}
		if err := walkFiles(in, consume); err != nil {
			return err
		}
	}
	if len(others) > 0 {
		cfg := pipeline.Config{Workers: 1, Crawl: crawl}
		if _, err := pipeline.Run(context.Background(), cfg, others, consume); err != nil {
			return err
		}
	}
	sort.Slice(changes, func(i, j int) bool {
		a, b := changes[i], changes[j]
		if a.url != b.url {
			return a.url < b.url
		}
		if a.bot != b.bot {
			return a.bot < b.bot
		}
		return a.column < b.column
	})
	w := csv.NewWriter(os.Stdout)
	w.Write([]string{"url", "bot", "column", "old", "new"})
	for _, ch := range changes {
		w.Write([]string{ch.url, ch.bot, ch.column, ch.old, ch.new})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return fmt.Errorf("writing the CSV: %w", err)
	}
	summarise(changes, captures, parsed, reread)
	return nil
}

// columns are the bots table's verdict columns.
var columns = []struct {
	name string
	get  func(*schema.BotRow) string
}{
	{"matched", func(r *schema.BotRow) string { return r.Matched }},
	{"root_allowed", func(r *schema.BotRow) string {
		if r.RootAllowed == nil {
			return ""
		}
		return fmt.Sprint(*r.RootAllowed)
	}},
	{"verdict", func(r *schema.BotRow) string { return r.Verdict }},
	{"somesite", func(r *schema.BotRow) string { return r.Somesite }},
	{"cic", func(r *schema.BotRow) string { return r.CIC }},
	{"cc_class", func(r *schema.BotRow) string { return r.CCClass }},
}

func summarise(changes []change, captures, parsed, reread int) {
	files := map[string]bool{}
	verdictFiles := map[string]bool{}
	byBot := map[string]map[string]bool{}
	byColumn := map[string]int{}
	for _, ch := range changes {
		files[ch.url] = true
		if ch.column == "verdict" {
			verdictFiles[ch.url] = true
		}
		if byBot[ch.bot] == nil {
			byBot[ch.bot] = map[string]bool{}
		}
		byBot[ch.bot][ch.url] = true
		byColumn[ch.column]++
	}
	e := os.Stderr
	fmt.Fprintf(e, "%d captures, %d parsed (2xx); %d name a user-agent token the two readings cut apart\n", captures, parsed, reread)
	fmt.Fprintf(e, "%d captures change some verdict column of some catalog bot; %d change a bot's verdict (full/partial/none)\n", len(files), len(verdictFiles))
	bots := make([]string, 0, len(byBot))
	for b := range byBot {
		bots = append(bots, b)
	}
	sort.Slice(bots, func(i, j int) bool {
		if len(byBot[bots[i]]) != len(byBot[bots[j]]) {
			return len(byBot[bots[i]]) > len(byBot[bots[j]])
		}
		return bots[i] < bots[j]
	})
	for _, b := range bots {
		fmt.Fprintf(e, "  %-16s %d captures\n", b, len(byBot[b]))
	}
	for _, col := range columns {
		fmt.Fprintf(e, "  column %-12s %d (capture, bot) cells\n", col.name, byColumn[col.name])
	}
}

// walkFiles hands every regular file below dir to consume as a robots.txt
// served with status 200, in lexical order.
func walkFiles(dir string, consume func(int, *record.Capture) error) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n := len(body)
		if n > parse.DefaultLimit {
			body = body[:parse.DefaultLimit] // as the pipeline cuts it (Config.BodyLimit)
		}
		return consume(0, &record.Capture{URL: "file:" + filepath.ToSlash(path), Status: 200, Body: body, BodyLen: int64(n)})
	})
}

// oldToken is a token as robotstat read it before issue 21: the prefix of
// ASCII letters, "_" and "-" (what GoogleProductToken reads).
func oldToken(v []byte) []byte { return parse.GoogleProductToken(v) }

// cutCatalog returns the catalog with every token cut to its old token, in
// the same order (the old tokens are distinct: the catalog was valid under
// the old rule).
func cutCatalog(c *stats.Catalog) (*stats.Catalog, error) {
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write([]string{"token", "operator", "category"})
	for _, bot := range c.Bots() {
		w.Write([]string{string(oldToken([]byte(bot.Token))), bot.Operator, bot.Category})
	}
	w.Flush()
	cut, err := stats.ReadCatalog(strings.NewReader(b.String()))
	if err != nil {
		return nil, fmt.Errorf("the catalog cut to old tokens: %w", err)
	}
	if cut.Len() != c.Len() {
		return nil, fmt.Errorf("the catalog cut to old tokens has %d bots, not %d", cut.Len(), c.Len())
	}
	return cut, nil
}

// cutAgents returns body with every user-agent value that is not "*"
// replaced by its old token and spaces, and whether any value's old and new
// tokens differ.
func cutAgents(body []byte) ([]byte, bool) {
	h := &agentCutter{body: body, out: slices.Clone(body)}
	parse.NewParser(parse.Options{}).Parse(body, h)
	return h.out, h.differs
}

type agentCutter struct {
	parse.NopHandler
	body, out []byte
	differs   bool
}

func (h *agentCutter) UserAgent(e *parse.Entry) {
	if parse.IsStar(e.Value) || len(e.Value) == 0 {
		return
	}
	// Value is a slice of the body: its offset is what its capacity lacks.
	off := cap(h.body) - cap(e.Value)
	if off < 0 || off+len(e.Value) > len(h.body) || !bytes.Equal(h.body[off:off+len(e.Value)], e.Value) {
		panic("tokenreach: a user-agent value is not a slice of the body")
	}
	old := oldToken(e.Value)
	if !bytes.Equal(old, e.Token) {
		h.differs = true
	}
	v := h.out[off : off+len(e.Value)]
	n := copy(v, old)
	if n == 0 {
		// A value that names no token must stay a value ("User-agent
		// 360Spider", without its colon, is a record only with two words):
		// "/" names none under either rule.
		v[0], n = '/', 1
	}
	for i := n; i < len(v); i++ {
		v[i] = ' '
	}
}
