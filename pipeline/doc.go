// Package pipeline reads robots.txt captures out of the containers researchers
// have: WARC files (plain, gzip per record or per stream, zstd), JSON Lines
// and CSV dumps, tar archives, folders of files named by host, manifests of
// paths or URLs, and HTTP(S) URLs. It fans the captures out to a bounded pool
// of workers. It knows nothing about statistics or Parquet: consumers receive
// a *Capture and do with it what they will.
package pipeline
