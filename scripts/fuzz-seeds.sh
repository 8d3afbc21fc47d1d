#!/bin/sh
# Seed the fuzz corpora (fuzz/corpus/<target>/, not committed) from our
# fixtures, and the archive target with small archives built here from
# them. Run from the crate root; safe to run again (files are replaced).
set -eu
cd "$(dirname "$0")/.."
c=fuzz/corpus
seed() { # seed TARGET FILE...
    mkdir -p "$c/$1"
    t=$1
    shift
    for f in "$@"; do
        cp "$f" "$c/$t/$(echo "$f" | tr / _)"
    done
}
seed trace $(find fixtures -name '*.FMT' -o -name '*.TRS')
seed binary_trace $(find fixtures -name '*.TRC')
seed errlog_text $(find fixtures -name 'AMQERR*.LOG')
seed errlog_json $(find fixtures -name 'AMQERR*.json')
seed fdc $(find fixtures -name '*.FDC') $(find fixtures/fragments -name '*fdc*.txt')
seed joblog $(find fixtures/zos fixtures/field fixtures/zos-julian -name '*.txt')
seed smf_csv $(find fixtures -name '*.csv')
seed container_log $(find fixtures -name 'container-*.log') \
    $(find fixtures/container-wrappers fixtures/fragments -name '*.log')
seed ffstsummary $(find fixtures -name 'FFST.output')
# analyze: one small file of each format.
seed analyze fixtures/trace/AMQ622742.0.FMT fixtures/trace/windows/AMQ2512.0.TRC \
    fixtures/client-errors/AMQERR01.LOG fixtures/errlog/qmgrs/QM2/errors/AMQERR01.json \
    fixtures/fdc/AMQ3321.0.FDC fixtures/zos/MQ1ACHIN.JESMSGLG.txt \
    fixtures/case-mixed/zos/smf/SMF-QCTDNS.csv
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
for t in "$c"/*; do
    echo "$(ls "$t" | wc -l) seeds in $t"
done
