#!/usr/bin/env bash
# Compares robotstat's parse+decide throughput with github.com/temoto/robotstxt
# on the real files in ../shared/corpus/robots (same files, same agents, same
# URLs; see scripts/compare-temoto). Prints the benchstat table and the ratio.
#
#   scripts/bench-compare.sh [COUNT]     # default COUNT=10
set -euo pipefail
cd "$(dirname "$0")/compare-temoto"
count="${1:-10}"
out="$(mktemp)"
go test -run '^$' -bench ParseDecide -count "$count" | tee "$out" | grep -E '^Benchmark' >&2 || true
if command -v benchstat >/dev/null 2>&1 || go run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da -h >/dev/null 2>&1; then
	go run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da -col /impl "$out"
fi
# Ratio of mean MB/s, robotstat over temoto, per corpus.
awk '/^BenchmarkParseDecide/ {
	split($1, p, "/"); corpus = p[2]; impl = p[3]; sub(/-[0-9]+$/, "", impl)
	for (i = 2; i <= NF; i++) if ($(i+1) == "MB/s") { sum[corpus, impl] += $i; n[corpus, impl]++ }
	corpora[corpus] = 1
}
END {
	for (c in corpora) {
		r = sum[c, "impl=robotstat"] / n[c, "impl=robotstat"]; t = sum[c, "impl=temoto"] / n[c, "impl=temoto"]
		printf "%-28s robotstat %7.1f MB/s   temoto %6.1f MB/s   ratio %.1fx\n", c, r, t, r / t
	}
}' "$out"
