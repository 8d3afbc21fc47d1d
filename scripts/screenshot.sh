#!/usr/bin/env bash
# Render the HTML report of fixtures/ (or the inputs given after the
# output file) to a PNG with headless Chromium at a 1280-pixel window, as
# a person would see it. Usage:
#   scripts/screenshot.sh [OUT.png [INPUT...]]
# Default OUT: target/report.png. Skipped, saying why, when Chromium is
# not installed (CI calls this only then).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
out="${1:-target/report.png}"
shift || true
inputs=("$@")
[ ${#inputs[@]} -gt 0 ] || inputs=(fixtures/)

browser=""
for b in chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null 2>&1; then
        browser="$(command -v "$b")"
        break
    fi
done
if [ -z "$browser" ]; then
    echo "screenshot: skipped, no chromium on PATH (apt-get install -y chromium)"
    exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cargo build --locked --quiet
# Exit 1 means findings at --fail-on, which is not used here: any
# non-zero status is a failure.
target/debug/mqdiag analyze --quiet --format html -o "$work/report.html" "${inputs[@]}"
mkdir -p "$(dirname "$out")"
# No network, no profile, no first-run work: the report must render from
# the file alone.
"$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run \
    --user-data-dir="$work/profile" --window-size=1280,"${HEIGHT:-2400}" \
    --screenshot="$out" "file://$work/report.html" >"$work/chromium.log" 2>&1 || {
    cat "$work/chromium.log" >&2
    exit 1
}
if [ ! -s "$out" ]; then
    echo "screenshot: chromium wrote no image" >&2
    cat "$work/chromium.log" >&2
    exit 1
fi
echo "screenshot: $out ($(wc -c <"$out") bytes)"
