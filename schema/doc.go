// Package schema defines robotstat's Parquet tables and writes them
// atomically.
package schema
