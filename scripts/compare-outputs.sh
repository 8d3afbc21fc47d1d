#!/usr/bin/env bash
# Run every verb in every format with two mqdiag binaries on the same input
# and say whether the outputs (and exit codes) are byte-identical: the check
# that a refactor or a speed change left what users see alone. Run from the
# repository's root. Usage:
#   [GOOD=DIR BAD=DIR] scripts/compare-outputs.sh OLD_BIN NEW_BIN INPUT
# Prints IDENTICAL, or the files that differ (kept in the folder it names).
set -uo pipefail
old=$1 new=$2 input=$3
# Two binaries failing alike on a missing input would compare identical.
if [ ! -e "$input" ]; then
    echo "compare-outputs: no such input: $input" >&2
    exit 2
fi
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
for f in text json markdown html sarif ecs; do run "analyze.$f" analyze "$input" --format "$f" -j 2; done
run analyze.j1 analyze "$input" --format json -j 1
run analyze.redact analyze "$input" --format json --redact
for f in text csv jsonl ecs otlp; do run "timeline.$f" timeline "$input" --format "$f"; done
run timeline.redact timeline "$input" --format jsonl --redact
# Rows are rendered on the workers: one thread and two give the same bytes.
for j in 1 2; do run "timeline.ecs.j$j" timeline "$input" --format ecs -j "$j"; done
run timeline.otlp.redact timeline "$input" --format otlp --redact
for f in text json; do run "inventory.$f" inventory "$input" --format "$f"; done
for f in text csv json markdown; do run "calls.$f" calls "$input" --format "$f"; done
for b in thread connection verb; do run "calls.by-$b" calls "$input" --by "$b"; done
# `compare` takes two captures: GOOD and BAD when set, else the first two
# directories under INPUT (INPUT itself where it has fewer).
caps=()
while IFS= read -r d; do caps+=("$d"); done < <(find "$input" -mindepth 1 -maxdepth 1 -type d | sort | head -n 2)
while [ ${#caps[@]} -lt 2 ]; do caps+=("$input"); done
good=${GOOD:-${caps[0]}} bad=${BAD:-${caps[1]}}
for f in text json markdown html; do run "compare.$f" compare "$good" "$bad" --format "$f" -j 2; done
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
