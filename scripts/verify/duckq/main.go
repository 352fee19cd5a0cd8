// Command duckq runs SQL against robotstat's output with a real DuckDB (the
// Go bindings this module already uses for its tests) and prints the result
// as an aligned table. It is for looking at output when no duckdb CLI is
// installed:
//
//	cd scripts/verify && go run ./duckq "SELECT outcome, count(*) FROM read_parquet('../../out/captures/**/*.parquet') GROUP BY ALL"
package main

import (
	"database/sql"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	_ "github.com/duckdb/duckdb-go/v2"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: duckq SQL...")
		os.Exit(2)
	}
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "duckq:", err)
		os.Exit(1)
	}
}

func run(queries []string) error {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	defer db.Close()
	for _, q := range queries {
		rows, err := db.Query(q)
		if err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
		cols, _ := rows.Columns()
		tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(cols, "\t"))
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				return err
			}
			cells := make([]string, len(vals))
			for i, v := range vals {
				if v == nil {
					cells[i] = "NULL"
				} else {
					cells[i] = fmt.Sprint(v)
				}
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		if err := rows.Err(); err != nil {
			return err
		}
		tw.Flush()
		fmt.Println()
	}
	return nil
}
