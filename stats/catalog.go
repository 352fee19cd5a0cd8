package stats

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/schema"
)

// categories are the valid values of a catalog entry's category (the bots
// and agents tables' category column, defined in schema, where each value is
// documented). The ai-* values are the AI categories (isAI); search-dual-use
// and generic-tool name tokens that a site may use for something other than
// AI, so reports leave them out of AI figures.
var categories = map[string]bool{
	schema.CategoryAITraining: true, schema.CategoryAISearch: true, schema.CategoryAIUserFetch: true,
	schema.CategoryAIOptoutToken: true, schema.CategoryAIData: true,
	schema.CategorySearchDualUse: true, schema.CategoryGenericTool: true,
	schema.CategorySearch: true, schema.CategorySEO: true, schema.CategoryOther: true,
}

// Bot is one catalog entry.
type Bot struct {
	// Token is the bot's product token as its operator spells it ("GPTBot",
	// "MJ12bot"). It is looked up in a robots.txt the way parse.Robots.Lookup
	// reads an agent: case-insensitively, by its leading product token
	// (parse.ProductToken: letters, digits, "-" and "_"), so "Kangaroo Bot"
	// is looked up as kangaroo.
	Token    string `json:"token"`
	Operator string `json:"operator"`
	Category string `json:"category"`
	// Source is where the entry was checked: an http(s) URL of the
	// operator's documentation of the token, or of the ai.robots.txt registry
	// file at the commit read. Checked is the date it was read there
	// (YYYY-MM-DD; the registry snapshot's date when the registry is the
	// source). Both are optional in a user's catalog and required in the
	// embedded one (a test says so).
	Source  string `json:"source,omitempty"`
	Checked string `json:"checked,omitempty"`
}

// Catalog is the list of bots the bots table reports on, in a fixed order.
// A Catalog is immutable once built and safe for concurrent use; the slice
// Bots returns must not be modified.
type Catalog struct {
	version string
	bots    []Bot
	// byToken maps the lower-cased product token to the index in bots.
	byToken map[string]int

	listOnce sync.Once
	list     *schema.BotList
}

// catalogFile is the JSON form of a catalog (the embedded catalog.json, and
// one of the forms --bots accepts).
type catalogFile struct {
	Format  string `json:"format"`
	Version string `json:"version"`
	About   string `json:"about,omitempty"`
	Bots    []Bot  `json:"bots"`
}

const catalogFormat = "robotstat-bot-catalog"

//go:embed catalog.json
var catalogJSON []byte

var defaultCatalog = mustReadEmbedded("catalog.json", catalogJSON, ReadCatalog)

// mustReadEmbedded reads a file embedded in the package with its reader; an
// error is a bug in the file, found by every test.
func mustReadEmbedded[T any](name string, data []byte, read func(io.Reader) (T, error)) T {
	v, err := read(bytes.NewReader(data))
	if err != nil {
		panic("stats: embedded " + name + ": " + err.Error())
	}
	return v
}

// DefaultCatalog returns the embedded catalog (catalog.json).
func DefaultCatalog() *Catalog { return defaultCatalog }

// Version returns the catalog's version string ("2026.12.1"; "custom" for a
// CSV catalog, "<base>+custom" for an extended one).
func (c *Catalog) Version() string { return c.version }

// Bots returns the entries in catalog order. Do not modify the slice.
func (c *Catalog) Bots() []Bot { return c.bots }

// Len returns the number of bots.
func (c *Catalog) Len() int { return len(c.bots) }

// List returns the catalog as bots rows list it (made once per Catalog).
func (c *Catalog) List() *schema.BotList {
	c.listOnce.Do(func() {
		ids := make([]schema.BotIdent, len(c.bots))
		for i, b := range c.bots {
			ids[i] = schema.BotIdent{Bot: b.Token, Operator: b.Operator, Category: b.Category}
		}
		c.list = schema.NewBotList(ids)
	})
	return c.list
}

// Lookup returns the entry whose product token is the one tok names
// (case-insensitive; "GPTBot/1.1" looks up gptbot). It does not allocate.
func (c *Catalog) Lookup(tok []byte) (Bot, bool) {
	tok = parse.ProductToken(tok)
	var buf [64]byte
	if len(tok) > len(buf) {
		return Bot{}, false
	}
	low := parse.AppendLowerToken(buf[:0], tok)
	i, ok := c.byToken[string(low)]
	if !ok {
		return Bot{}, false
	}
	return c.bots[i], true
}

// ReadCatalog reads a catalog from r, in either of two forms:
//
//   - JSON, as the embedded catalog.json: an object with "format":
//     "robotstat-bot-catalog", a "version" and "bots", a list of
//     {"token", "operator", "category"} with optional "source" and "checked";
//     or that list alone, a JSON array, whose version is "custom";
//   - CSV with a header line naming the columns token, operator and category,
//     and optionally source and checked (in any order; other columns are
//     ignored). Its version is "custom".
//
// Both forms are what WriteCatalog and WriteCatalogJSON print, so
// `robotstat bots` output reads back unchanged; files written before source
// and checked existed read as before. Every token must name a product token
// (parse.ProductToken: start with a letter, a digit, "-" or "_"), every
// category must be one of the Category constants, no two entries may share a
// product token, a source, when given, must be an http(s) URL and checked a
// YYYY-MM-DD date.
func ReadCatalog(r io.Reader) (*Catalog, error) {
	br := bufio.NewReader(r)
	first, err := firstNonSpace(br)
	if err != nil {
		return nil, err
	}
	var f catalogFile
	if first == '{' {
		dec := json.NewDecoder(br)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrCatalogFormat, err)
		}
		if f.Format != catalogFormat {
			return nil, fmt.Errorf("%w: format is %q, want %q", ErrCatalogFormat, f.Format, catalogFormat)
		}
		if f.Version == "" {
			return nil, fmt.Errorf("%w: no version", ErrCatalogFormat)
		}
	} else if first == '[' {
		// A JSON list of bots alone, without the object around it: JSON
		// all the same (read as CSV it was "CSV header lacks column
		// token").
		dec := json.NewDecoder(br)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f.Bots); err != nil {
			return nil, fmt.Errorf("%w: a JSON list of bots: %w", ErrCatalogFormat, err)
		}
		f.Version = "custom"
	} else {
		f.Version = "custom"
		f.Bots, err = readCatalogCSV(br)
		if err != nil {
			return nil, err
		}
	}
	return newCatalog(f.Version, f.Bots)
}

func firstNonSpace(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.Peek(1)
		if err == io.EOF {
			return 0, ErrCatalogEmpty
		}
		if err != nil {
			return 0, fmt.Errorf("stats: reading bot catalog: %w", err)
		}
		switch b[0] {
		case ' ', '\t', '\r', '\n':
			br.ReadByte()
			continue
		case 0xEF: // a UTF-8 BOM
			if p, _ := br.Peek(3); len(p) == 3 && p[1] == 0xBB && p[2] == 0xBF {
				br.Discard(3)
				continue
			}
		}
		return b[0], nil
	}
}

func readCatalogCSV(r io.Reader) ([]Bot, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.Comment = '#'
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%w: CSV header: %w", ErrCatalogFormat, err)
	}
	col := map[string]int{"token": -1, "operator": -1, "category": -1, "source": -1, "checked": -1}
	for i, h := range head {
		h = strings.ToLower(strings.TrimSpace(h))
		if _, ok := col[h]; ok {
			col[h] = i
		}
	}
	for _, name := range [...]string{"token", "operator", "category"} {
		if col[name] < 0 {
			return nil, fmt.Errorf("%w: CSV header lacks column %q", ErrCatalogFormat, name)
		}
	}
	var bots []Bot
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return bots, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrCatalogFormat, err)
		}
		get := func(name string) string {
			if i := col[name]; i >= 0 && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		bots = append(bots, Bot{Token: get("token"), Operator: get("operator"), Category: get("category"),
			Source: get("source"), Checked: get("checked")})
	}
}

func newCatalog(version string, bots []Bot) (*Catalog, error) {
	if len(bots) == 0 {
		return nil, ErrCatalogEmpty
	}
	c := &Catalog{version: version, bots: make([]Bot, 0, len(bots)), byToken: make(map[string]int, len(bots))}
	for _, b := range bots {
		b.Token = strings.TrimSpace(b.Token)
		tok := tokenKey(b.Token)
		if tok == "" {
			return nil, fmt.Errorf("%w: %q", ErrCatalogToken, b.Token)
		}
		if !categories[b.Category] {
			return nil, fmt.Errorf("%w: %q for %q", ErrCatalogCategory, b.Category, b.Token)
		}
		if _, dup := c.byToken[tok]; dup {
			return nil, fmt.Errorf("%w: %q", ErrCatalogDup, b.Token)
		}
		if len(tok) > 64 {
			return nil, fmt.Errorf("%w: %q is longer than 64 bytes", ErrCatalogToken, b.Token)
		}
		if err := checkSource(b); err != nil {
			return nil, err
		}
		c.byToken[tok] = len(c.bots)
		c.bots = append(c.bots, b)
	}
	return c, nil
}

// checkSource validates the optional source and checked fields.
func checkSource(b Bot) error {
	if b.Source != "" {
		u, err := url.Parse(b.Source)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fmt.Errorf("%w: source %q for %q", ErrCatalogSource, b.Source, b.Token)
		}
	}
	if b.Checked != "" {
		if _, err := time.Parse(time.DateOnly, b.Checked); err != nil {
			return fmt.Errorf("%w: checked %q for %q", ErrCatalogSource, b.Checked, b.Token)
		}
	}
	return nil
}

// tokenKey is a bot's key in byToken: the product token its Token names, in
// lower case, as Lookup reads a robots.txt's agent.
func tokenKey(token string) string {
	return string(parse.AppendLowerToken(nil, parse.ProductToken([]byte(token))))
}

// Extend returns a catalog holding c's bots followed by more's; an entry of
// more whose product token c already has replaces c's entry in place (so a
// --bots file can recategorise a bot). Its version is c's followed by
// "+custom".
func (c *Catalog) Extend(more *Catalog) *Catalog {
	bots := append([]Bot(nil), c.bots...)
	for _, b := range more.bots {
		if i, ok := c.byToken[tokenKey(b.Token)]; ok {
			bots[i] = b
			continue
		}
		bots = append(bots, b)
	}
	out, err := newCatalog(c.version+"+custom", bots)
	if err != nil {
		// Both inputs were valid catalogs and duplicates were merged.
		panic("stats: Extend: " + err.Error())
	}
	return out
}

// CatalogMode says how LoadCatalog combines a user's file with the embedded
// catalog (robotstat analyze --bots FILE).
type CatalogMode uint8

const (
	// CatalogExtend adds the file's bots to the embedded catalog (and
	// replaces entries with the same product token).
	CatalogExtend CatalogMode = iota
	// CatalogReplace uses the file's bots alone.
	CatalogReplace
)

// LoadCatalog reads a user catalog from r (see ReadCatalog) and combines it
// with the embedded one as mode says.
func LoadCatalog(r io.Reader, mode CatalogMode) (*Catalog, error) {
	c, err := ReadCatalog(r)
	if err != nil {
		return nil, err
	}
	if mode == CatalogReplace {
		return c, nil
	}
	return DefaultCatalog().Extend(c), nil
}

// WriteCatalog prints c for `robotstat bots`: a comment line with the
// version, then CSV with the header token,operator,category,source,checked,
// one bot per line, which ReadCatalog reads back.
func WriteCatalog(w io.Writer, c *Catalog) error {
	if _, err := fmt.Fprintf(w, "# robotstat bot catalog %s: %d bots\n", c.version, len(c.bots)); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	cw.Write([]string{"token", "operator", "category", "source", "checked"})
	for _, b := range c.bots {
		cw.Write([]string{b.Token, b.Operator, b.Category, b.Source, b.Checked})
	}
	cw.Flush()
	return cw.Error()
}

// WriteCatalogJSON prints c in the JSON form of catalog.json (without its
// about text), which ReadCatalog reads back with c's version.
func WriteCatalogJSON(w io.Writer, c *Catalog) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(catalogFile{Format: catalogFormat, Version: c.version, Bots: c.bots})
}
