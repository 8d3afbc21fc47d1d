#!/bin/sh
# Seed the fuzz corpora (fuzz/corpus/<target>/, not committed) from our
# fixtures, the archive target with small archives built here from them,
# and the redact target with text error logs. No reader's target is
# named here: a new reader's fixtures seed its target. Run from the crate
# root; safe to run again (files are replaced).
set -eu
cd "$(dirname "$0")/.."
c=fuzz/corpus
# Each fixture for the target of the reader that takes it, and a small
# file of each reader's for `analyze` (src/fuzzing.rs, `seeds`).
cargo run --quiet --example fuzz_seeds -- fixtures "$c"
# archive: zip (deflated and stored), tar, tar.gz, gzip, a zip in a tar.gz.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$c/archive"
zip -q -r "$tmp/deflated.zip" fixtures/fdc fixtures/zos
zip -q -0 -r "$tmp/stored.zip" fixtures/client-errors fixtures/trace/headerless
tar -cf "$tmp/case.tar" fixtures/trace/wrap fixtures/errlog/system
tar -czf "$tmp/case.tar.gz" fixtures/trace/midnight
gzip -c fixtures/fdc/AMQ3321.0.FDC > "$tmp/AMQ3321.0.FDC.gz"
tar -czf "$tmp/nested.tar.gz" -C "$tmp" stored.zip
cp "$tmp"/*.zip "$tmp"/*.tar "$tmp"/*.gz "$c/archive/"
# redact: free text naming users, hosts, addresses and queue managers (the
# text error logs).
mkdir -p "$c/redact"
find fixtures -name 'AMQERR0*.LOG' -size -64k | while read -r f; do
    cp "$f" "$c/redact/$(echo "$f" | tr '/' '_')"
done
for t in "$c"/*; do
    echo "$(ls "$t" | wc -l) seeds in $t"
done
