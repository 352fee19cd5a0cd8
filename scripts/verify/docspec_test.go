package verify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docColumn is one row of a column table in schema/README.md.
type docColumn struct {
	name, typ string
	null      bool
}

// docSchema parses schema/README.md: for each "### table" heading, the
// top-level columns of the table under it (nested list-element rows such
// as signals[].key are skipped: their types are part of the list's).
func docSchema(t *testing.T) map[string][]docColumn {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "schema", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	tables := map[string][]docColumn{}
	current := ""
	for _, line := range strings.Split(string(b), "\n") {
		if h, ok := strings.CutPrefix(line, "### "); ok {
			current, _, _ = strings.Cut(h, " ")
			continue
		}
		if current == "" || !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(line, " | ")
		if len(cells) < 4 {
			t.Fatalf("schema/README.md: malformed row %q", line)
		}
		name := strings.Trim(strings.TrimPrefix(cells[0], "| "), "`")
		if strings.Contains(name, "[]") {
			continue
		}
		tables[current] = append(tables[current], docColumn{name: name, typ: cells[1], null: cells[2] == "yes"})
	}
	return tables
}

func TestDocSchemaCoversEveryTable(t *testing.T) {
	doc := docSchema(t)
	for _, tb := range allTables() {
		if len(doc[tb]) == 0 {
			t.Errorf("schema/README.md documents no columns for %s", tb)
		}
	}
}
