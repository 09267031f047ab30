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
# with_sigint COMMAND...: runs it with SIGINT at its default, as at a
# terminal (a background job of a script starts with it ignored).
with_sigint() {
  exec python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}
# running PID NAME: waits (30 s at most) until PID runs the program NAME,
# past with_sigint's Python, whose start on a loaded machine takes longer
# than any fixed sleep (a SIGINT before it reset the signal would end
# Python with a KeyboardInterrupt, not the program).
running() {
  local tries
  for tries in $(seq 300); do
    case "$(readlink "/proc/$1/exe" 2>/dev/null)" in */"$2") return 0 ;; esac
    kill -0 "$1" 2>/dev/null || return 0
    sleep 0.1
  done
}
sums() { sha256sum "$@" | awk '{print $1}' | tr '\n' ' '; }
