# What the CLI test scripts share, sourced after `set -euo pipefail`: a
# scratch directory to work in (removed on exit), fail, and expect_error.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
# expect_error [-F] CODE PATTERN COMMAND...: COMMAND exits CODE within 60 s
# and its standard error (kept in err.txt; standard output in out.txt)
# matches PATTERN, a grep pattern, or with -F a fixed text.
expect_error() {
  local fixed=
  if [ "$1" = -F ]; then fixed=-F; shift; fi
  local code=$1 pattern=$2
  shift 2
  set +e
  timeout 60 "$@" > out.txt 2> err.txt
  local got=$?
  set -e
  [ "$got" -eq "$code" ] || fail "$* exited $got, expected $code: $(cat err.txt)"
  grep -q $fixed -- "$pattern" err.txt || fail "$*: expected '$pattern' in: $(cat err.txt)"
}
