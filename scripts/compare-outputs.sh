#!/usr/bin/env bash
# Run every verb in every format with two mqdiag binaries on the same input
# and say whether the outputs (and exit codes) are byte-identical: the check
# that a refactor or a speed change left what users see alone. Run from the
# repository's root. Usage:
#   scripts/compare-outputs.sh OLD_BIN NEW_BIN INPUT
# Prints IDENTICAL, or the files that differ (kept in the folder it names).
set -uo pipefail
old=$1 new=$2 input=$3
out=$(mktemp -d "${TMPDIR:-/tmp}/mqdiag-compare.XXXX")
mkdir -p "$out/a" "$out/b"
run() { # NAME ARGS...
    local n=$1
    shift
    "$old" "$@" >"$out/a/$n" 2>"$out/a/$n.err"
    echo $? >"$out/a/$n.rc"
    "$new" "$@" >"$out/b/$n" 2>"$out/b/$n.err"
    echo $? >"$out/b/$n.rc"
}
for f in text json markdown html sarif; do run "analyze.$f" analyze "$input" --format "$f" -j 2; done
run analyze.j1 analyze "$input" --format json -j 1
run analyze.redact analyze "$input" --format json --redact
for f in text csv jsonl ecs otlp; do run "timeline.$f" timeline "$input" --format "$f"; done
run timeline.ecs.j1 timeline "$input" --format ecs -j 1
run analyze.ecs analyze "$input" --format ecs
run analyze.window analyze "$input" --format json --since 2000-01-01T00:00:00Z --until 2100-01-01T00:00:00Z
run timeline.redact timeline "$input" --format jsonl --redact
for f in text json; do run "inventory.$f" inventory "$input" --format "$f"; done
for f in text csv json; do run "calls.$f" calls "$input" --format "$f"; done
# Two captures: the input against its first sub-folder (the compare verb).
second=$(find "$input" -mindepth 1 -maxdepth 1 -type d | sort | head -1)
if [ -n "$second" ]; then
    for f in text json markdown html; do run "compare.$f" compare "$second" "$input" --format "$f"; done
    run compare.redact compare "$second" "$input" --format json --redact
fi
run rules.text rules
run rules.json rules --format json
run help --help
run man man
if diff -rq "$out/a" "$out/b"; then
    echo IDENTICAL
    rm -rf "$out"
else
    echo "outputs kept in $out"
fi
