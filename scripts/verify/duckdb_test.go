package verify

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"
	"github.com/robotstat/robotstat/schema"
)

var (
	dbOnce sync.Once
	db     *sql.DB
	dbErr  error
)

// duck returns an in-memory DuckDB, shared by the tests, with the time zone
// pinned so that TIMESTAMP WITH TIME ZONE values print the same everywhere.
func duck(t *testing.T) *sql.DB {
	t.Helper()
	dbOnce.Do(func() {
		db, dbErr = sql.Open("duckdb", "")
		if dbErr == nil {
			_, dbErr = db.Exec("SET TimeZone = 'UTC'")
		}
	})
	if dbErr != nil {
		t.Fatal(dbErr)
	}
	return db
}

// glob returns the read_parquet call the README recommends for a table.
// site_history spans crawls: its crawl column is NULL, and so is its one
// partition, the default one (either way reads the same:
// TestHivePartitioningOnOff); it is read as it always was, without.
func glob(root, table string) string {
	if table == string(schema.SiteHistory) {
		return fmt.Sprintf("read_parquet('%s/%s/**/*.parquet', hive_partitioning = false)", root, table)
	}
	return fmt.Sprintf("read_parquet('%s/%s/**/*.parquet', hive_partitioning = true)", root, table)
}

// query runs q and returns every row with every value as DuckDB prints it
// (cast to VARCHAR), NULL as "NULL".
func query(t *testing.T, q string, args ...any) [][]string {
	t.Helper()
	rows, err := duck(t).Query("SELECT COLUMNS(*)::VARCHAR FROM ("+q+")", args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = "NULL"
			if v.Valid {
				row[i] = v.String
			}
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}

func TestDuckDBDescribe(t *testing.T) {
	doc := docSchema(t)
	for _, tb := range allTables() {
		t.Run(tb, func(t *testing.T) {
			got := query(t, "DESCRIBE SELECT * FROM "+glob(fixtureRoot, tb))
			cols := doc[tb]
			if len(got) != len(cols) {
				t.Fatalf("DuckDB sees %d columns, schema/README.md documents %d", len(got), len(cols))
			}
			for i, c := range cols {
				name, typ := got[i][0], strings.ReplaceAll(got[i][1], `"`, "")
				if name != c.name || typ != c.typ {
					t.Errorf("column %d: DuckDB %s %s, documented %s %s", i, name, typ, c.name, c.typ)
				}
			}
		})
	}
}

func TestDuckDBCounts(t *testing.T) {
	for _, tb := range allTables() {
		t.Run(tb, func(t *testing.T) {
			want := crawlCounts(fixture, schema.TableName(tb))
			crawl := "coalesce(crawl, 'NULL')"
			if tb == string(schema.SiteHistory) {
				crawl = "'NULL'"
			}
			got := query(t, "SELECT "+crawl+", count(*) FROM "+glob(fixtureRoot, tb)+" GROUP BY ALL")
			if len(got) != len(want) {
				t.Fatalf("DuckDB sees crawls %v, want %v", got, want)
			}
			for _, r := range got {
				crawl := r[0]
				if crawl == "NULL" {
					crawl = ""
				}
				if fmt.Sprint(want[crawl]) != r[1] {
					t.Errorf("crawl %q: %s rows, want %d", r[0], r[1], want[crawl])
				}
			}
			if tb == string(schema.SiteHistory) {
				return
			}
			// The crawl column inside the files agrees with the partition key.
			disagree := query(t, fmt.Sprintf(`SELECT count(*) FROM read_parquet('%s/%s/**/*.parquet', hive_partitioning = false, filename = true)
				WHERE coalesce(crawl, '%s') <> regexp_extract(filename, 'crawl=([^/]*)/', 1)`, fixtureRoot, tb, schema.DefaultPartition))
			if disagree[0][0] != "0" {
				t.Errorf("%s rows whose crawl column differs from their partition", disagree[0][0])
			}
		})
	}
}

func TestDuckDBMetadata(t *testing.T) {
	got := query(t, fmt.Sprintf(`SELECT decode(key), decode(value) FROM parquet_kv_metadata('%s/captures/**/*.parquet')
		WHERE file_name LIKE '%%crawl=CC-MAIN-2024-33%%' AND decode(key) LIKE 'robotstat.%%' ORDER BY 1`, fixtureRoot))
	want := [][]string{
		{"robotstat.crawl", "CC-MAIN-2024-33"},
		{"robotstat.option.bots", "fixture-catalog"},
		{"robotstat.option.parse_limit", "512000"},
		{"robotstat.run_id", "fixture"},
		{"robotstat.schema_version", schema.SchemaVersion},
		{"robotstat.table", "captures"},
		{"robotstat.version", fixtureOptions.Version},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("metadata\n got %v\nwant %v", got, want)
	}
}

// TestDuckDBEscapedCrawls reads crawls whose names are not directory names
// (separators, dots, %, non-ASCII, the Hive default's own name) back
// through the partition key.
func TestDuckDBEscapedCrawls(t *testing.T) {
	got := query(t, "SELECT crawl, count(*) FROM "+glob(escapeRoot, "captures")+" GROUP BY ALL ORDER BY crawl")
	var want [][]string
	for _, c := range escapeCrawls {
		want = append(want, []string{c, "1"})
	}
	slices.SortFunc(want, slices.Compare)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("crawls through the partition key:\n got %q\nwant %q", got, want)
	}
	for _, f := range parquetFiles(t, escapeRoot) {
		if strings.Count(f, string(filepath.Separator)) != 2 {
			t.Errorf("file %s is not at table/partition/file", f)
		}
	}
}

// TestDuckDBValues compares values that need care (timestamps, NULLs,
// lists, structs, nullable booleans) with the rows written.
func TestDuckDBValues(t *testing.T) {
	t.Run("captures", func(t *testing.T) {
		got := query(t, "SELECT capture_id, crawl, fetch_time, http_status, rank, template, registered_domain, outcome FROM "+glob(fixtureRoot, "captures")+" ORDER BY capture_id")
		byID := map[string][]string{}
		for _, r := range got {
			byID[r[0]] = r
		}
		if len(byID) != len(fixture.Captures) {
			t.Fatalf("%d distinct capture ids, want %d", len(byID), len(fixture.Captures))
		}
		for _, c := range fixture.Captures {
			want := []string{c.CaptureID, orNull(c.Crawl), "NULL", "NULL", "NULL", orNull(c.Template), orNull(c.RegisteredDomain), c.Outcome}
			if !c.FetchTime.IsZero() {
				want[2] = c.FetchTime.UTC().Format("2006-01-02 15:04:05+00")
			}
			if c.HTTPStatus != 0 {
				want[3] = fmt.Sprint(c.HTTPStatus)
			}
			if c.Rank != 0 {
				want[4] = fmt.Sprint(c.Rank)
			}
			if g := byID[c.CaptureID]; fmt.Sprint(g) != fmt.Sprint(want) {
				t.Fatalf("capture %s:\n got %q\nwant %q", c.CaptureID, g, want)
			}
		}
	})
	t.Run("groups_lists", func(t *testing.T) {
		got := query(t, "SELECT capture_id, group_index, user_agents, product_tokens, other_directives, crawl_delay FROM "+glob(fixtureRoot, "groups")+" ORDER BY capture_id, group_index")
		want := map[string]string{}
		for _, g := range fixture.Groups {
			delay := "NULL"
			if g.CrawlDelay != nil {
				delay = fmt.Sprintf("%.1f", *g.CrawlDelay)
			}
			want[fmt.Sprint(g.CaptureID, g.GroupIndex)] = fmt.Sprint([]string{g.CaptureID, fmt.Sprint(g.GroupIndex), duckList(g.UserAgents), duckList(g.ProductTokens), duckList(g.OtherDirectives), delay})
		}
		if len(got) != len(want) {
			t.Fatalf("%d groups, want %d", len(got), len(want))
		}
		for _, r := range got {
			if w := want[r[0]+r[1]]; fmt.Sprint(r) != w {
				t.Fatalf("\n got %q\nwant %s", r, w)
			}
		}
	})
	t.Run("directives_signals", func(t *testing.T) {
		got := query(t, "SELECT count(*), count(signals), sum(len(signals)), count(*) FILTER (WHERE map_from_entries(signals)['ai-train'] = 'no') FROM "+glob(fixtureRoot, "directives"))
		var n, withSignals, pairs, aiTrainNo int
		for _, d := range fixture.Directives {
			n++
			if d.Signals != nil {
				withSignals++
				pairs += len(d.Signals)
				for _, s := range d.Signals {
					if s.Key == "ai-train" && s.Value == "no" {
						aiTrainNo++
					}
				}
			}
		}
		if want := fmt.Sprint([]string{fmt.Sprint(n), fmt.Sprint(withSignals), fmt.Sprint(pairs), fmt.Sprint(aiTrainNo)}); fmt.Sprint(got[0]) != want {
			t.Errorf("got %v, want %s", got[0], want)
		}
	})
	t.Run("bots_nullable_bool", func(t *testing.T) {
		got := query(t, "SELECT verdict, coalesce(root_allowed::VARCHAR, 'NULL'), count(*) FROM "+glob(fixtureRoot, "bots")+" GROUP BY ALL ORDER BY ALL")
		counts := map[string]int{}
		for _, b := range fixture.BotRows() {
			ra := "NULL"
			if b.RootAllowed != nil {
				ra = fmt.Sprint(*b.RootAllowed)
			}
			counts[b.Verdict+"/"+ra]++
		}
		if len(got) != len(counts) {
			t.Fatalf("got %v, want %v", got, counts)
		}
		for _, r := range got {
			if fmt.Sprint(counts[r[0]+"/"+r[1]]) != r[2] {
				t.Errorf("verdict %s root_allowed %s: %s rows, want %d", r[0], r[1], r[2], counts[r[0]+"/"+r[1]])
			}
		}
	})
}

func orNull(s string) string {
	if s == "" {
		return "NULL"
	}
	return s
}

// duckList prints a list as DuckDB casts it to VARCHAR.
func duckList(s []string) string {
	return "[" + strings.Join(s, ", ") + "]"
}
