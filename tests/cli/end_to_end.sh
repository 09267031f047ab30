#!/usr/bin/env bash
# generate -> convert onto two drives -> info --verify -> scan; then the
# error paths: exit codes, messages naming the file, nothing left behind.
set -euo pipefail
sluice=$1
. "$(dirname "$0")/lib.sh"

"$sluice" generate rmat --scale 12 --edge-factor 8 --seed 7 -o g.el >/dev/null
mkdir d0 d1
"$sluice" convert g.el g.sluice --drives d0,d1 --transpose >/dev/null
"$sluice" info g.sluice --verify | grep -q "verified" || fail "info --verify"
"$sluice" info g.sluice --json | grep -q '"edges":32768' || fail "info --json"
a=$("$sluice" scan g.el | sed 's/.*digest //')
b=$("$sluice" scan g.sluice --buffers 2 --block-edges 1000 | sed 's/.*digest //')
[ "$a" = "$b" ] || fail "scan digests differ: $a vs $b"
"$sluice" convert g.sluice g.mtx >/dev/null
c=$("$sluice" scan g.mtx | sed 's/.*digest //')
[ "$a" = "$c" ] || fail "mtx digest differs"

# Bad input: exit 1 and a message naming the file and line.
printf '0 1\n1 x\n' > bad.el
set +e
"$sluice" convert bad.el out.sluice 2> err.txt; code=$?
set -e
[ $code -eq 1 ] || fail "bad input exit code $code"
grep -q "bad.el:line 2" err.txt || fail "message: $(cat err.txt)"
[ ! -e out.sluice ] || fail "output left behind"
ls | grep -q 'tmp-' && fail "temporary file left behind"

# Damaged drive file (a data page, after the header page): verify fails,
# naming the file and the page's byte offset.
printf 'x' | dd of=d1/g.out.1 bs=1 seek=4196 conv=notrunc status=none
set +e
"$sluice" info g.sluice --verify > /dev/null 2> err.txt; code=$?
set -e
[ $code -eq 1 ] || fail "verify exit code $code"
grep -q "d1/g.out.1:byte 4096: page 1 fails its checksum" err.txt || fail "verify message: $(cat err.txt)"

# Unknown option: usage error, exit 2.
set +e
"$sluice" info g.sluice --no-such-flag 2> /dev/null; code=$?
set -e
[ $code -eq 2 ] || fail "usage exit code $code"
# iobench and calibrate on a small drive file: fio-style figures, a profile.
dd if=/dev/zero of=drive.dat bs=1M count=8 status=none
"$sluice" iobench --drives drive.dat --io aio --duration 0.2 --queue-depth 8 --completion-batch 4 \
    --handoff-batch 2 --seed 3 > bench.txt
iops=$(sed -n 's/.*read: IOPS=\([0-9]*\),.*/\1/p' bench.txt)
[ "${iops:-0}" -gt 0 ] || fail "iobench: $(cat bench.txt)"
grep -q "p99=" bench.txt || fail "iobench latency line: $(cat bench.txt)"
# Two drives: each reports its own IOPS and bytes, and each was read.
cp drive.dat drive2.dat
"$sluice" iobench --drives drive.dat,drive2.dat --duration 0.2 --queue-depth 4 > bench2.txt
for d in 0 1; do
  grep -q "drive $d: .*IOPS=[1-9][0-9]*, .* [1-9][0-9]* bytes, busy [1-9]" bench2.txt || fail "iobench drive $d: $(cat bench2.txt)"
done
"$sluice" iobench --drives drive.dat --pattern sequential --block-size 64k --duration 0.2 | grep -q "IOPS=" ||
  fail "iobench sequential"
set +e
"$sluice" iobench --drives drive.dat --completion-batch 0 2> err.txt; code=$?
set -e
[ $code -eq 2 ] || fail "iobench --completion-batch 0 exit code $code"
grep -q "at least 1" err.txt || fail "iobench message: $(cat err.txt)"
"$sluice" calibrate --drives drive.dat --seconds 0.05 --profile drive.profile --accept | grep -q "skip threshold" ||
  fail "calibrate"
[ -s drive.profile ] || fail "calibrate wrote no profile"
grep -q "^fit_error [0-9.e+-]*$" drive.profile || fail "the profile lacks the fit's error: $(cat drive.profile)"
# On a fresh directory (issue 23, 7): calibrate makes its own probe file and
# removes it; the profile goes where the engine looks; --forget removes it.
mkdir fresh
SLUICE_PROFILE_DIR=$PWD/profiles "$sluice" calibrate --drives fresh --seconds 0.05 > fresh.txt 2> fresh.err || fail "calibrate on a directory: $(cat fresh.txt)"
grep -q "^fit: t(s) = t0 + s / B within [0-9.]*% of every measured size$" fresh.txt || fail "calibrate's fit error: $(cat fresh.txt)"
# A fit that misses by more than 25% is said to be untrusted, and only then;
# its profile is not written (runs keep their λ) unless --accept.
fit_error=$(sed -n 's/^fit: .* within \([0-9.]*\)% .*/\1/p' fresh.txt)
if grep -q "^profile: not written" fresh.txt; then
  awk -v e="$fit_error" 'BEGIN {exit !(e > 24.95)}' || fail "a fit $fit_error% off was not written: $(cat fresh.txt)"
  grep -q "warning: fresh: the fit misses a measured size by .* The profile is not written: .*sluice sweep" fresh.err ||
    fail "a fit $fit_error% off went unremarked: $(cat fresh.err)"
  [ -z "$(ls -A profiles 2>/dev/null)" ] || fail "an untrusted fit wrote a profile without --accept"
  SLUICE_PROFILE_DIR=$PWD/profiles "$sluice" calibrate --drives fresh --seconds 0.05 --accept > fresh.txt 2> fresh.err ||
    fail "calibrate --accept: $(cat fresh.txt)"
else
  awk -v e="$fit_error" 'BEGIN {exit !(e < 25.05)}' || fail "a fit $fit_error% off was written without --accept"
  ! grep -q "warning: fresh: the fit" fresh.err || fail "a fit $fit_error% off was warned about: $(cat fresh.err)"
fi
[ -z "$(ls -A fresh)" ] || fail "calibrate left its probe file: $(ls -A fresh)"
[ "$(ls profiles | wc -l)" -eq 1 ] || fail "no profile for the directory's device"
SLUICE_PROFILE_DIR=$PWD/profiles "$sluice" calibrate --drives fresh --forget | grep -q ": removed: " || fail "calibrate --forget"
[ -z "$(ls -A profiles)" ] || fail "--forget left the profile"

echo "end to end: ok"
