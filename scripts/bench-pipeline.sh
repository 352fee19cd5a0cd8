#!/usr/bin/env bash
# Pipeline throughput against the decompression floor.
#
#   scripts/bench-pipeline.sh [N] [RUNS]
#
# Generates (once) a Common-Crawl-shaped robotstxt corpus of N captures
# (default 100000) under ${BENCH_DIR:-/tmp/robotstat-bench}/N with
# scripts/gencorpus (bodies from ../shared/corpus/robots), then runs
# scripts/benchpipeline on its first WARC file (one big file: the case
# where a single decoder must keep every worker busy) and on all of them,
# for 1 and 2 workers, best of RUNS rounds (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-100000}"
runs="${2:-5}"
dir="${BENCH_DIR:-/tmp/robotstat-bench}/$n"
if [ ! -d "$dir/robotstxt" ]; then
  go run ./scripts/gencorpus -n "$n" -out "$dir" -robots ../shared/corpus/robots
fi
bin="$(mktemp -d)/benchpipeline"
go build -o "$bin" ./scripts/benchpipeline
files=("$dir"/robotstxt/*.warc.gz)
echo "== one file: ${files[0]##*/}"
"$bin" -workers 1,2 -runs "$runs" "${files[0]}"
if [ "${#files[@]}" -gt 1 ]; then
  echo "== all ${#files[@]} files (inputs are decoded in parallel, one per worker)"
  "$bin" -workers 1,2 -runs "$runs" "${files[@]}"
fi
