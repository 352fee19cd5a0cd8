# Sourced by the headless-Chromium checks (report-screenshot.sh,
# tester-check.sh): sets $chromium to a Chromium binary, installing it with
# apt-get when it is missing and root (or passwordless sudo) is at hand.
# Exit status 3 means "no browser here and none could be installed", so
# that a caller (.ci/run) can tell it from a page that renders wrong.
chromium="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
if [ -z "$chromium" ]; then
	sudo=""
	if [ "$(id -u)" != 0 ]; then
		if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
			sudo="sudo -n"
		else
			echo "chromium is not installed and installing it needs root: apt-get install chromium, or set CHROMIUM=/path/to/chrome" >&2
			exit 3
		fi
	fi
	echo "== installing chromium (apt-get)"
	export DEBIAN_FRONTEND=noninteractive
	if ! { $sudo apt-get install -y -qq chromium >/dev/null 2>&1 || { $sudo apt-get update -qq && $sudo apt-get install -y -qq chromium >/dev/null; }; }; then
		echo "apt-get could not install chromium" >&2
		exit 3
	fi
	chromium="$(command -v chromium)"
fi
echo "== $("$chromium" --version 2>/dev/null || echo chromium)"
