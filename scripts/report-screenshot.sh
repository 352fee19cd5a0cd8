#!/usr/bin/env bash
# Renders robotstat report's HTML page for the report fixture (four crawls
# of 400 made-up sites with real robots.txt bodies mixed in, ranks, repeats,
# redirects, signals, blocks lifted; see report/reporttest/fixture.go) and
# photographs it in headless Chromium at a desktop and a phone width: as it
# opens (all sites, all ranks), by rank, and opened on the panel by rank
# stratum; and the page of the embedded sample (one crawl).
# Then TestReportScreenshots checks that the pictures are not blank and that
# every chart's colours are there. Look at the PNGs yourself: the script
# prints where they are.
#
#   scripts/report-screenshot.sh [DIR]     (default: a fresh folder under /tmp)
#
# Chromium is the Debian package `chromium`, installed with apt-get when
# missing (as root), or the binary $CHROMIUM names. The page is opened from a
# file with networking switched off as far as Chromium allows, which is also
# how it must work for its readers: it loads nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOFLAGS="${GOFLAGS:-} -buildvcs=false"

out="${1:-$(mktemp -d /tmp/robotstat-report-shots.XXXXXX)}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

. scripts/lib/chromium.sh # sets $chromium, or exits 3

echo "== building robotstat and writing the fixture"
go build -o "$out/robotstat" ./cmd/robotstat
rm -rf "$out/data"
go run ./scripts/reportfixture "$out/data"
"$out/robotstat" report "$out/data" --html "$out/report.html" >"$out/report.txt" 2>>"$out/report.log"
"$out/robotstat" report "$out/data" --by rank --html "$out/report-by-rank.html" >"$out/report-by-rank.txt" 2>>"$out/report.log"
"$out/robotstat" report "$out/data" --panel --strata --html "$out/report-panel-strata.html" >"$out/report-panel-strata.txt" 2>>"$out/report.log"
rm -rf "$out/sample"
"$out/robotstat" analyze --quiet --out "$out/sample" 2>>"$out/report.log"
"$out/robotstat" report "$out/sample" --html "$out/report-sample.html" >"$out/report-sample.txt" 2>>"$out/report.log"

# shoot PAGE PNG WIDTH HEIGHT: a screenshot of the top WIDTH x HEIGHT pixels.
shoot() {
	local profile
	profile="$(mktemp -d)"
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync --hide-scrollbars \
		--user-data-dir="$profile" --screenshot="$2" --window-size="$3,$4" "file://$1" >/dev/null 2>&1 || true
	rm -rf "$profile"
	if [ ! -s "$2" ]; then
		echo "chromium wrote no $2" >&2
		exit 1
	fi
}

echo "== screenshots"
shoot "$out/report.html" "$out/desktop.png" 1280 1600
shoot "$out/report.html" "$out/desktop-full.png" 1280 16000
shoot "$out/report.html" "$out/narrow.png" 390 1600
shoot "$out/report.html" "$out/narrow-full.png" 390 40000
shoot "$out/report-by-rank.html" "$out/rank-desktop-full.png" 1280 12000
shoot "$out/report-panel-strata.html" "$out/panel-strata-desktop-full.png" 1280 16000
shoot "$out/report-sample.html" "$out/sample-desktop-full.png" 1280 9000
shoot "$out/report-sample.html" "$out/sample-narrow.png" 390 3000

echo "== checking them"
if ! ROBOTSTAT_SCREENSHOTS="$out" go test ./report -run '^TestReportScreenshots$' -count=1 -v >"$out/check.log" 2>&1; then
	cat "$out/check.log"
	exit 1
fi
grep 'non-white' "$out/check.log" | sed 's/^ *//'

echo "== look at them:"
ls -1 "$out"/*.png "$out"/*.html
