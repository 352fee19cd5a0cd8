package schema

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
	"github.com/robotstat/robotstat/internal/testkit"
)

var update = flag.Bool("update", false, "rewrite README.md's generated part from the row types")

// Markers around the generated part of README.md; the prose outside them is
// written by hand.
const (
	docBegin = "<!-- BEGIN GENERATED: go generate ./schema (schemadoc_test.go) -->"
	docEnd   = "<!-- END GENERATED -->"
)

// docTables pairs each table with its row type.
var docTables = []struct {
	name TableName
	row  any
}{
	{Captures, CaptureRow{}},
	{Groups, GroupRow{}},
	{Agents, AgentRow{}},
	{Bots, BotRow{}},
	{Directives, DirectiveRow{}},
	{Signals, SignalRow{}},
	{Verdicts, VerdictsRow{}},
	{Errors, ErrorRow{}},
	{Rules, RuleRow{}},
	{Sitemaps, SitemapRow{}},
	{Diagnostics, DiagnosticRow{}},
	{Sites, SiteRow{}},
	{SiteBots, SiteBotRow{}},
	{SiteHistory, SiteHistoryRow{}},
	{Domains, DomainRow{}},
}

// TestSchemaDoc fails when README.md's generated part differs from what
// the row types and their comments say; with -update it rewrites it.
func TestSchemaDoc(t *testing.T) {
	t.Parallel()
	docs := parseDocs(t)
	gen := generateDoc(t, docs)
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	begin := bytes.Index(readme, []byte(docBegin))
	end := bytes.Index(readme, []byte(docEnd))
	if begin < 0 || end < begin {
		t.Fatalf("README.md lacks the markers %q and %q", docBegin, docEnd)
	}
	var out bytes.Buffer
	out.Write(readme[:begin+len(docBegin)])
	out.WriteString("\n")
	out.WriteString(gen)
	out.Write(readme[end:])
	if bytes.Equal(out.Bytes(), readme) {
		return
	}
	if *update {
		if err := os.WriteFile("README.md", out.Bytes(), 0o666); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("schema/README.md is out of date with the row types; run: go generate ./schema\n%s", testkit.FirstLineDiff(string(readme), out.String()))
}

// typeDoc is what the source says about one struct type.
type typeDoc struct {
	doc    string
	fields map[string]string // parquet column name -> field comment
	embeds []string          // embedded type names
}

// parseDocs reads the package's non-test source files and returns the doc
// comments of every struct type and its fields.
func parseDocs(t *testing.T) map[string]*typeDoc {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]*typeDoc{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				td := &typeDoc{fields: map[string]string{}}
				if ts.Doc != nil {
					td.doc = ts.Doc.Text()
				} else if gd.Doc != nil {
					td.doc = gd.Doc.Text()
				}
				for _, field := range st.Fields.List {
					if len(field.Names) == 0 {
						td.embeds = append(td.embeds, fmt.Sprint(field.Type))
						continue
					}
					if field.Tag == nil {
						continue
					}
					tag, _ := strconv.Unquote(field.Tag.Value)
					col, _, _ := strings.Cut(reflect.StructTag(tag).Get("parquet"), ",")
					if col == "" || col == "-" {
						continue
					}
					td.fields[col] = oneLine(field.Doc.Text())
				}
				docs[ts.Name.Name] = td
			}
		}
	}
	return docs
}

// markdownEscape keeps comment text literal in Markdown: * and _ would
// start emphasis (/*, __HIVE_DEFAULT_PARTITION__), | would end a cell.
var markdownEscape = strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "|", `\|`, "<", `\<`, "`", "\\`").Replace

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// tableDoc returns the paragraphs of a row type's comment that speak to
// researchers, dropping the ones about Go usage (reuse, concurrency).
func tableDoc(doc string) string {
	var keep []string
	for _, p := range strings.Split(strings.TrimSpace(doc), "\n\n") {
		if strings.Contains(p, "TableWriter.Write") {
			continue
		}
		p = oneLine(p)
		// "CaptureRow is a row of the captures table: one row per ..." reads
		// as "One row per ..." in a document about tables.
		if head, rest, ok := strings.Cut(p, " table: "); ok && strings.Contains(head, " is a row of the ") {
			p = strings.ToUpper(rest[:1]) + rest[1:]
		}
		keep = append(keep, p)
	}
	return strings.Join(keep, "\n\n")
}

func generateDoc(t *testing.T, docs map[string]*typeDoc) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "Schema version %s. Types are as DuckDB reports them (`DESCRIBE`); a column may be NULL only\n", SchemaVersion)
	fmt.Fprintf(&b, "where the null column says so.\n\n")
	keyCols := map[string]bool{}
	b.WriteString("### Columns every table has\n\n")
	b.WriteString("Every table starts with these four columns (Go: the embedded `Key`), so any table can be queried alone or\n")
	b.WriteString("joined to `captures` (or any other) on `capture_id`.\n\n")
	b.WriteString("| column | type | null | description |\n|---|---|---|---|\n")
	for _, f := range parquet.SchemaOf(Key{}).Fields() {
		keyCols[f.Name()] = true
		writeColumn(t, &b, docs, "Key", "", f)
	}
	b.WriteString("\n")
	for _, tb := range docTables {
		typeName := reflect.TypeOf(tb.row).Name()
		td := docs[typeName]
		if td == nil || strings.TrimSpace(td.doc) == "" {
			t.Fatalf("%s has no doc comment", typeName)
		}
		optIn := ""
		switch {
		case slices.Contains(ReduceTables(), tb.name):
			optIn = " (built by `robotstat sites`)"
		case !slices.Contains(DefaultTables(), tb.name):
			optIn = " (opt-in: `--tables " + string(tb.name) + "`)"
		}
		fmt.Fprintf(&b, "### %s%s\n\n%s\n\n", tb.name, optIn, markdownEscape(tableDoc(td.doc)))
		b.WriteString("| column | type | null | description |\n|---|---|---|---|\n")
		s := parquet.SchemaOf(tb.row)
		for _, f := range s.Fields() {
			if keyCols[f.Name()] && slices.Contains(td.embeds, "Key") {
				fmt.Fprintf(&b, "| `%s` | %s | %s | As in every table. |\n", f.Name(), duckDBType(t, f), nullable(f))
				continue
			}
			writeColumn(t, &b, docs, typeName, "", f)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func nullable(f parquet.Node) string {
	if f.Optional() {
		return "yes"
	}
	return ""
}

// fieldDoc finds the comment of column col of type typeName, looking
// through embedded types.
func fieldDoc(docs map[string]*typeDoc, typeName, col string) (string, bool) {
	td := docs[typeName]
	if td == nil {
		return "", false
	}
	if d, ok := td.fields[col]; ok {
		return d, true
	}
	for _, e := range td.embeds {
		if d, ok := fieldDoc(docs, e, col); ok {
			return d, true
		}
	}
	return "", false
}

func writeColumn(t *testing.T, b *strings.Builder, docs map[string]*typeDoc, typeName, prefix string, f parquet.Field) {
	t.Helper()
	doc, ok := fieldDoc(docs, typeName, f.Name())
	if !ok || doc == "" {
		t.Errorf("column %s%s of %s has no doc comment", prefix, f.Name(), typeName)
	}
	fmt.Fprintf(b, "| `%s%s` | %s | %s | %s |\n", prefix, f.Name(), duckDBType(t, f), nullable(f), markdownEscape(doc))
	// The fields of a list of structs get rows of their own.
	if elem, ok := listElement(f); ok && !elem.Leaf() {
		for _, sub := range elem.Fields() {
			writeColumn(t, b, docs, elementTypeName(t, typeName, f.Name()), prefix+f.Name()+"[].", sub)
		}
	}
}

// elementTypeName returns the Go type name of the elements of list column
// col of typeName, via reflection on the row types.
func elementTypeName(t *testing.T, typeName, col string) string {
	for _, tb := range docTables {
		rt := reflect.TypeOf(tb.row)
		if rt.Name() != typeName {
			continue
		}
		for i := range rt.NumField() {
			sf := rt.Field(i)
			if name, _, _ := strings.Cut(sf.Tag.Get("parquet"), ","); name == col && sf.Type.Kind() == reflect.Slice {
				return sf.Type.Elem().Name()
			}
		}
	}
	t.Fatalf("no list column %s in %s", col, typeName)
	return ""
}

func listElement(n parquet.Node) (parquet.Node, bool) {
	if n.Leaf() {
		return nil, false
	}
	if lt := n.Type().LogicalType(); lt == nil || lt.Value == nil {
		return nil, false
	} else if _, ok := lt.Value.(*format.ListType); !ok {
		return nil, false
	}
	return n.Fields()[0].Fields()[0], true
}

// duckDBType names the type DuckDB gives a column of this shape.
func duckDBType(t *testing.T, n parquet.Node) string {
	t.Helper()
	if elem, ok := listElement(n); ok {
		return duckDBType(t, elem) + "[]"
	}
	if !n.Leaf() {
		var parts []string
		for _, f := range n.Fields() {
			parts = append(parts, f.Name()+" "+duckDBType(t, f))
		}
		return "STRUCT(" + strings.Join(parts, ", ") + ")"
	}
	typ := n.Type()
	if lt := typ.LogicalType(); lt != nil && lt.Value != nil {
		switch v := lt.Value.(type) {
		case *format.StringType:
			return "VARCHAR"
		case *format.DateType:
			return "DATE"
		case *format.TimestampType:
			if v.IsAdjustedToUTC {
				return "TIMESTAMP WITH TIME ZONE"
			}
			return "TIMESTAMP"
		case *format.IntType:
			switch {
			case v.BitWidth == 32 && v.IsSigned:
				return "INTEGER"
			case v.BitWidth == 64 && v.IsSigned:
				return "BIGINT"
			}
		}
	}
	switch typ.Kind() {
	case parquet.Boolean:
		return "BOOLEAN"
	case parquet.Int32:
		return "INTEGER"
	case parquet.Int64:
		return "BIGINT"
	case parquet.Double:
		return "DOUBLE"
	}
	t.Fatalf("no DuckDB type for column %s (%v)", n, typ)
	return ""
}
