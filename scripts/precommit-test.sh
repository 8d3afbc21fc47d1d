#!/usr/bin/env bash
# The pre-commit hook of .pre-commit-hooks.yaml, run by the real pre-commit:
# installed from PyPI into a throw-away virtual environment, pointed at a
# clone of this repository at HEAD (language `rust` makes pre-commit
# `cargo install` it: a release build). A scratch git repository with
# healthy traces must pass; adding an error log with errors must fail.
# Skipped, saying why, only when PyPI cannot be reached.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A fresh Debian machine may lack the venv module: install it (CI is root).
if ! python3 -m venv "$work/venv" >/dev/null 2>&1; then
    apt-get install -y -qq python3-venv >/dev/null 2>&1 ||
        { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq python3-venv >/dev/null 2>&1; } || true
    python3 -m venv "$work/venv"
fi
if ! "$work/venv/bin/pip" install --quiet --disable-pip-version-check pre-commit >"$work/pip.log" 2>&1; then
    if grep -qiE 'connection|resolve|network|timed out|No matching distribution' "$work/pip.log"; then
        echo "precommit-test: SKIPPED: PyPI cannot be reached to install pre-commit:"
        tail -n 3 "$work/pip.log"
        exit 0
    fi
    cat "$work/pip.log"
    exit 1
fi
export PATH="$work/venv/bin:$PATH"
export PRE_COMMIT_HOME="$work/cache"

# The hook repository: this repository at HEAD (committed work only).
git clone --quiet "$root" "$work/hook-repo"
rev="$(git -C "$work/hook-repo" rev-parse HEAD)"

repo="$work/evidence"
mkdir -p "$repo"
cd "$repo"
git init --quiet
git config user.email ci@example.invalid
git config user.name ci
cat >.pre-commit-config.yaml <<YAML
repos:
  - repo: $work/hook-repo
    rev: $rev
    hooks:
      - id: mqdiag
YAML
cp -r "$root/fixtures/healthy" healthy
git add .
if ! pre-commit run --all-files; then
    echo "precommit-test: FAILED: the hook rejected healthy traces"
    exit 1
fi
mkdir client
cp "$root/fixtures/client-errors/AMQERR01.LOG" client/AMQERR01.LOG
git add client
if pre-commit run --all-files >"$work/run.log" 2>&1; then
    cat "$work/run.log"
    echo "precommit-test: FAILED: the hook accepted an error log with errors"
    exit 1
fi
cat "$work/run.log"
grep -q 'mqdiag' "$work/run.log"

# The `mqdiag-system` hook runs the mqdiag on PATH: the one `cargo test`
# built (or a release build), as `cargo install --locked` would give.
bin=""
for b in "$root/target/debug/mqdiag" "$root/target/release/mqdiag"; do
    [ -x "$b" ] && bin="$(dirname "$b")" && break
done
if [ -z "$bin" ]; then
    (cd "$root" && cargo build --locked --quiet)
    bin="$root/target/debug"
fi
sed -i 's/- id: mqdiag$/- id: mqdiag-system/' .pre-commit-config.yaml
if PATH="$bin:$PATH" pre-commit run --all-files >"$work/run.log" 2>&1; then
    cat "$work/run.log"
    echo "precommit-test: FAILED: mqdiag-system accepted an error log with errors"
    exit 1
fi
git rm --quiet -r -f client
if ! PATH="$bin:$PATH" pre-commit run --all-files; then
    echo "precommit-test: FAILED: mqdiag-system rejected healthy traces"
    exit 1
fi
echo "precommit-test: ok (healthy passes, client-errors/AMQERR01.LOG fails; both hooks)"
