package verify

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docFiles are the Markdown files whose SQL examples are run. Every
// ```sql block must run; a block followed (after blank lines) by a Markdown
// table must return exactly that table: the header names the columns, each
// row is a result row in order, values as DuckDB casts them to VARCHAR,
// NULL for NULL. Paths 'out/...' in the SQL are read under the dataset's
// root.
//
// To test another document (the main README against the embedded sample's
// output, say), add it here with the root of the dataset its examples
// expect. A block preceded by the line
//
//	<!-- dataset: four-crawls -->
//
// runs against that dataset instead (datasetRoots): examples that need
// several crawls, which the sample does not have.
func docFiles() []struct{ path, root string } {
	return []struct{ path, root string }{
		{filepath.Join("..", "..", "schema", "README.md"), fixtureRoot},
		{filepath.Join("testdata", "queries.md"), fixtureRoot},
		{filepath.Join("..", "..", "README.md"), sampleRoot},
	}
}

// docQuery is one SQL example and, when given, the result it documents.
type docQuery struct {
	line   int
	sql    string
	header []string
	rows   [][]string
	hasRes bool
	// dataset names the dataset the block runs against (datasetRoots);
	// empty for the document's own.
	dataset string
}

// datasetRoots are the datasets a block may name.
func datasetRoots() map[string]string {
	return map[string]string{"four-crawls": reportFixtureRoot, "sample": sampleRoot, "panel": panelRoot}
}

// datasetMarker is the comment that names a block's dataset.
const datasetMarker = "<!-- dataset: "

func TestDocQueries(t *testing.T) {
	for _, doc := range docFiles() {
		queries := parseDocQueries(t, doc.path)
		if len(queries) == 0 {
			t.Errorf("%s has no SQL examples", doc.path)
		}
		for _, q := range queries {
			t.Run(fmt.Sprintf("%s:%d", filepath.Base(doc.path), q.line), func(t *testing.T) {
				sql := strings.TrimSuffix(strings.TrimSpace(q.sql), ";")
				root := doc.root
				if q.dataset != "" {
					var ok bool
					if root, ok = datasetRoots()[q.dataset]; !ok {
						t.Fatalf("%s:%d names dataset %q; known: %v", doc.path, q.line, q.dataset, datasetRoots())
					}
				}
				sql = strings.ReplaceAll(sql, "'out/", "'"+root+"/")
				header, rows := queryWithHeader(t, sql)
				if !q.hasRes {
					return
				}
				if fmt.Sprint(header) != fmt.Sprint(q.header) || fmt.Sprint(rows) != fmt.Sprint(q.rows) {
					t.Errorf("%s:%d returns a different result; it returns:\n\n%s", doc.path, q.line, markdownTable(header, rows))
				}
			})
		}
	}
}

// queryWithHeader is query, with the column names.
func queryWithHeader(t *testing.T, q string) ([]string, [][]string) {
	t.Helper()
	rows, err := duck(t).Query("SELECT * FROM (" + q + ") LIMIT 0")
	if err != nil {
		t.Fatalf("%v\n%s", err, q)
	}
	cols, err := rows.Columns()
	rows.Close()
	if err != nil {
		t.Fatal(err)
	}
	return cols, query(t, q)
}

func markdownTable(header []string, rows [][]string) string {
	var b strings.Builder
	line := func(cells []string) {
		esc := make([]string, len(cells))
		for i, c := range cells {
			esc[i] = strings.ReplaceAll(c, "|", `\|`)
		}
		b.WriteString("| " + strings.Join(esc, " | ") + " |\n")
	}
	line(header)
	b.WriteString(strings.Repeat("|---", len(header)) + "|\n")
	for _, r := range rows {
		line(r)
	}
	return b.String()
}

func parseDocQueries(t *testing.T, path string) []docQuery {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	var out []docQuery
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```sql" {
			continue
		}
		q := docQuery{line: i + 1}
		for k := i - 1; k >= 0; k-- {
			l := strings.TrimSpace(lines[k])
			if l == "" {
				continue
			}
			if name, ok := strings.CutPrefix(l, datasetMarker); ok {
				q.dataset = strings.TrimSpace(strings.TrimSuffix(name, "-->"))
			}
			break
		}
		var sql []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			sql = append(sql, lines[i])
		}
		q.sql = strings.Join(sql, "\n")
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if j < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[j]), "|") {
			q.hasRes = true
			q.header = cells(lines[j])
			for j += 2; j < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[j]), "|"); j++ {
				q.rows = append(q.rows, cells(lines[j]))
			}
			i = j - 1
		}
		out = append(out, q)
	}
	return out
}

// cells splits a Markdown table row, undoing backslash escapes.
func cells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(strings.TrimSuffix(line, "|"), "|")
	var out []string
	var cur strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line):
			i++
			cur.WriteByte(line[i])
		case line[i] == '|':
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(line[i])
		}
	}
	return append(out, strings.TrimSpace(cur.String()))
}
