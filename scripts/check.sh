#!/usr/bin/env bash
# The checks CI runs (.ci/run calls this), for use before every commit:
# gofmt, go vet, staticcheck, the tests, the race detector in -short mode,
# and every benchmark for one iteration so none rots. The modules under
# scripts/ that have their own go.mod (comparisons, independent readers) get
# the same treatment.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOFLAGS="${GOFLAGS:-} -buildvcs=false"
STATICCHECK=honnef.co/go/tools/cmd/staticcheck@v0.8.2

# step names the next check and says how long the one before it took, so a
# CI log shows where its minutes go.
last=$(date +%s)
step() { now=$(date +%s); printf '(%ds)\n\n== %s\n' "$((now - last))" "$*"; last=$now; }

step gofmt
unformatted="$(gofmt -l $(git ls-files '*.go'))"
if [ -n "$unformatted" ]; then echo "gofmt needed on:"; echo "$unformatted"; exit 1; fi

step "go vet"; go vet ./...
step staticcheck; go run "$STATICCHECK" ./...
step "go test ./...  (the README's test command)"; go test ./...
# The race detector runs every package's -short tests but cmd/robotstat's,
# which under it took 190 s of CI's 20 minutes to drive, in process, the
# packages whose own tests run here anyway; cmd's one shared object (the
# retry printer pipeline goroutines call) and its interrupt handling get the
# tests that exercise them.
step "go test -race -short ./... (cmd/robotstat: its concurrent paths)"
go test -race -short $(go list ./... | grep -v '/cmd/robotstat$')
go test -race -short ./cmd/robotstat -run '^(TestAnalyzeSample|TestAnalyzeCrawls|TestAnalyzeRefused|TestAnalyzeInterrupted|TestAnalyzeInterruptedMidRun|TestPanelWayback)$'
step "every benchmark, one iteration"; go test -run '^$' -bench . -benchtime 1x ./...
# go test ./... runs every fuzz target's seeds; a few seconds of fuzzing
# each finds what a change to a reader broke before a review does.
for target in ./pipeline:FuzzContainer ./pipeline:FuzzRun ./pipeline:FuzzCSVReader ./warc:FuzzReader; do
	pkg="${target%%:*}" name="${target#*:}"
	step "fuzz $name in $pkg, 10 s"; go test "$pkg" -run '^$' -fuzz "^$name\$" -fuzztime 10s -parallel 1
done

for mod in scripts/*/go.mod; do
	dir="$(dirname "$mod")"
	step "module $dir"
	# Tests and one iteration of each benchmark in one go test, so each
	# test binary (scripts/verify's links DuckDB) is built and linked once.
	(cd "$dir" && go vet ./... && go test -bench . -benchtime 1x ./...)
done
step "done"
