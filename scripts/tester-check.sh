#!/usr/bin/env bash
# Writes robotstat tester's page and loads it in headless Chromium with test
# cases in the URL fragment: the link robotstat tester prints, and one
# written by hand with several agents and URLs. After the WebAssembly module
# has run, the page's DOM must hold one data-decision element per agent and
# URL, each answering what `robotstat check` answers for it, with the same
# --explain text, and the AI bots' verdicts. Then photographs the page at a
# desktop and a phone width, and TestTesterScreenshots checks the pictures
# are not blank. Look at the PNGs yourself: the script prints where they are.
#
#   scripts/tester-check.sh [DIR]     (default: a fresh folder under /tmp)
#
# Chromium is the Debian package `chromium`, installed with apt-get when
# missing (as root), or the binary $CHROMIUM names; exit status 3 means none
# is here and none could be installed. The page is opened from a file with
# networking switched off as far as Chromium allows: it loads nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOFLAGS="${GOFLAGS:-} -buildvcs=false"

out="${1:-$(mktemp -d /tmp/robotstat-tester.XXXXXX)}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

. scripts/lib/chromium.sh # sets $chromium, or exits 3

echo "== building robotstat and writing the page"
go build -o "$out/robotstat" ./cmd/robotstat
page="$out/tester.html"
cat >"$out/robots.txt" <<'EOF'
Disallow: /outside-any-group
User-agent: GPTBot
User-agent: CCBot
Disallow: /

User-agent: *
Disallow: /private
Allow: /private/ok$
Dissallow: /typo
Disallow: /*.pdf$
Crawl-delay: 5
Content-Signal: ai-train=no, search=yes

User-agent: Googlebot
Disallow: /foo/%62ar
Sitemap: https://example.com/sitemap.xml
EOF
link1="$("$out/robotstat" tester --out "$page" "$out/robots.txt" GPTBot /x https://example.com/private/ok /typo 2>"$out/tester.log")"
# By hand: several agents (a version, an unnamed one), percent-encoding to
# normalise, a query, and a file name with a space. %0A is a line break.
robots2='User-agent%3A%20Googlebot%0ADisallow%3A%20%2Ffoo%2F%2562ar%0A%0AUser-agent%3A%20*%0ADisallow%3A%20%2F*.pdf%24%0AAllow%3A%20%2Fpublic%0ADisallow%3A%20%2F'
link2="file://$page#robots=$robots2&agent=Googlebot&agent=ClaudeBot%2F1.0&agent=Bingbot&url=%2Ffoo%2Fbar%2Fx&url=%2Fpublic%2Fa.pdf&url=%2Fpublic%2Fa%20b%3Fq%3D1&url=%2Frobots.txt"
printf '%s\n' "$link1" >"$out/link1.txt"

chrome() {
	local profile
	profile="$(mktemp -d)"
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync --hide-scrollbars \
		--user-data-dir="$profile" --virtual-time-budget=10000 "$@" 2>>"$out/chromium.log" || true
	rm -rf "$profile"
}

# unescape undoes the HTML escaping of the dumped DOM's text and attributes.
unescape() { sed -e 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&#39;/'"'"'/g; s/&nbsp;/ /g; s/&amp;/\&/g'; }

# expect ROBOTS_TXT FRAGMENT_AGENT... -- URL...: what robotstat check
# --explain says, one "verdict<TAB>agent<TAB>url" and one explain line per
# decision, agent by agent as the page lists them.
expect() {
	local robots="$1"; shift
	local agents=() urls=() a
	while [ "$1" != "--" ]; do agents+=("$1"); shift; done
	shift
	urls=("$@")
	for a in "${agents[@]}"; do
		"$out/robotstat" check --explain "$robots" "$a" "${urls[@]}" 2>/dev/null | while IFS= read -r line; do
			# "verdict URL<TAB>explanation"; a URL may hold spaces.
			rest="${line#* }"
			printf 'decision\t%s\t%s\t%s\n' "${line%% *}" "$a" "${rest%%$'\t'*}"
			printf 'explain\t%s\n' "$line"
		done || true
	done
}

# got DOM: the same lines, read from the page.
got() {
	grep -o '<li class="decision" data-decision="[^"]*" data-agent="[^"]*" data-url="[^"]*"\|<code class="explain">[^<]*</code>' "$1" |
		sed -e 's/^<li class="decision" data-decision="\([^"]*\)" data-agent="\([^"]*\)" data-url="\([^"]*\)"$/decision\t\1\t\2\t\3/' \
			-e 's/^<code class="explain">\(.*\)<\/code>$/explain\t\1/' | unescape
}

failed=0
check() { # NAME DOM EXPECTED_FILE
	local name="$1" dom="$2" want="$3"
	got "$dom" >"$out/$name.got"
	if grep -q 'id="error" class="alert" role="alert">' "$dom" || ! grep -q 'id="error" class="alert" role="alert" hidden' "$dom"; then
		echo "FAIL $name: the page shows an error:" >&2
		grep -o 'id="error"[^<]*<[^<]*' "$dom" >&2 || true
		failed=1
	fi
	if ! diff -u "$want" "$out/$name.got" >"$out/$name.diff"; then
		echo "FAIL $name: the page's decisions are not robotstat check's:" >&2
		cat "$out/$name.diff" >&2
		failed=1
	else
		echo "ok   $name: $(grep -c '^decision' "$want") decisions, each as robotstat check --explain says"
	fi
}

echo "== the pages' DOM after the module ran"
chrome --dump-dom "$link1" >"$out/case1.html"
expect "$out/robots.txt" GPTBot -- /x https://example.com/private/ok /typo >"$out/case1.want"
check case1 "$out/case1.html" "$out/case1.want"

# robots2, decoded (no final line break, as in the fragment).
printf 'User-agent: Googlebot\nDisallow: /foo/%%62ar\n\nUser-agent: *\nDisallow: /*.pdf$\nAllow: /public\nDisallow: /' >"$out/robots2.txt"
chrome --dump-dom "$link2" >"$out/case2.html"
expect "$out/robots2.txt" Googlebot ClaudeBot/1.0 Bingbot -- /foo/bar/x /public/a.pdf "/public/a b?q=1" /robots.txt >"$out/case2.want"
check case2 "$out/case2.html" "$out/case2.want"

# Known answers, independent of check: the AI bots' verdicts, the findings
# and records, and decisions RFC 9309 fixes (stacked agents share a group;
# /public/a.pdf ties Allow: /public with Disallow: /*.pdf$ at 7 octets, and
# allow wins a tie).
for want in 'data-bot="GPTBot" data-verdict="full" data-match="named"' 'data-bot="CCBot" data-verdict="full" data-match="named"' \
	'data-bot="ClaudeBot" data-verdict="partial" data-match="star"' 'data-decision="disallowed" data-agent="GPTBot" data-url="/x"' \
	'data-decision="disallowed" data-agent="GPTBot" data-url="https://example.com/private/ok"' \
	'data-code="rule-outside-group"' 'data-code="typo"' 'data-record="crawl-delay"' 'data-record="content-signal"' 'data-record="sitemap"'; do
	if ! grep -qF "$want" "$out/case1.html"; then
		echo "FAIL case1: no $want" >&2
		failed=1
	fi
done
for want in 'data-decision="allowed" data-agent="Googlebot" data-url="/robots.txt"' 'data-decision="disallowed" data-agent="Googlebot" data-url="/foo/bar/x"' \
	'data-decision="allowed" data-agent="ClaudeBot/1.0" data-url="/public/a.pdf"'; do
	if ! grep -qF "$want" "$out/case2.html"; then
		echo "FAIL case2: no $want" >&2
		failed=1
	fi
done
# A page written without a case opens with its example: 2 agents, 4 URLs.
"$out/robotstat" tester --out "$out/example.html" >/dev/null 2>>"$out/tester.log"
chrome --dump-dom "file://$out/example.html" >"$out/example.dom.html"
n="$(grep -o 'data-decision="[a-z]*"' "$out/example.dom.html" | wc -l)"
if [ "$n" != 8 ] || ! grep -q 'id="error" class="alert" role="alert" hidden' "$out/example.dom.html"; then
	echo "FAIL example: $n decisions, want 8, or an error shown" >&2
	failed=1
fi
[ "$failed" = 0 ] || exit 1
echo "ok   known answers: verdicts, findings, records; the example page's 8 decisions"

echo "== screenshots"
shoot() { # LINK PNG WIDTH HEIGHT
	chrome --screenshot="$2" --window-size="$3,$4" "$1" >/dev/null
	if [ ! -s "$2" ]; then
		echo "chromium wrote no $2" >&2
		exit 1
	fi
}
# The printed link with a second agent, so that both answers are drawn.
shots="$link1&agent=Googlebot"
shoot "$shots" "$out/desktop.png" 1280 1400
shoot "$shots" "$out/desktop-full.png" 1280 4200
shoot "$shots" "$out/narrow.png" 390 1400
shoot "$shots" "$out/narrow-full.png" 390 9000
shoot "$link2" "$out/several-desktop.png" 1280 3000
shoot "file://$out/example.html" "$out/example-narrow.png" 390 1800
if ! ROBOTSTAT_TESTER_SHOTS="$out" go test ./tester -run '^TestTesterScreenshots$' -count=1 -v >"$out/check.log" 2>&1; then
	cat "$out/check.log"
	exit 1
fi
grep 'non-white' "$out/check.log" | sed 's/^ *//'

echo "== look at them:"
ls -1 "$out"/*.png "$page"
