// Package verify reads robotstat's Parquet output back with readers that
// share no code with the writer: Apache Arrow's Go Parquet implementation
// and DuckDB (through its Go bindings, which link DuckDB's own C++ reader).
// Its tests write fixture datasets through package schema and check that
// every table opens, that column types, nullability, row counts, values,
// Hive partitions, compression, dictionary encoding and file metadata are
// what schema/README.md documents, and that the SQL examples in the
// Markdown files listed in docFiles return the rows written under them.
//
// It is a module of its own so that Arrow and DuckDB (a cgo build of a few
// minutes) never become dependencies of robotstat itself. Run it with
//
//	cd scripts/verify && go test ./...
package verify
