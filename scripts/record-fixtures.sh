#!/usr/bin/env bash
# Records the archives under test/fixtures/recorded/: the same short session, logged by
# pmlogger as a V2 and as a V3 archive, against the local pmcd. A workload of short-lived
# processes named pmdash-fx (a link to sleep(1)) starts and stops throughout, and hotproc is
# restricted to exactly those processes, so the per-process instance domain changes at almost
# every sample while no other process of this machine is recorded. The previous hotproc
# settings are restored afterwards. Data volumes are xz-compressed (pmlogger's own format);
# metadata and index stay plain. Recorded fixtures are committed so that tests need no pmcd.
#
# usage: scripts/record-fixtures.sh [SECONDS]   (default 30; needs pmcd and pmstore rights)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
out=test/fixtures/recorded

command -v pmlogger >/dev/null || { echo "record-fixtures: PCP is not installed (npm run setup)" >&2; exit 1; }
pminfo -h localhost hinv.ncpu >/dev/null || { echo "record-fixtures: pmcd is not answering on localhost" >&2; exit 1; }

work=$(mktemp -d)
old_config=$(pminfo -f hotproc.control.config | sed -n 's/^ *value "\(.*\)"$/\1/p')
old_refresh=$(pminfo -f hotproc.control.refresh | awk '/value/{print $2}')
pids=()
cleanup() {
  [ "${#pids[@]}" -gt 0 ] && kill "${pids[@]}" 2>/dev/null || true
  pmstore hotproc.control.config "$old_config" >/dev/null || true
  pmstore hotproc.control.refresh "${old_refresh:-10}" >/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

ln -s "$(command -v sleep)" "$work/pmdash-fx"
pmstore hotproc.control.config 'fname == "pmdash-fx"' >/dev/null
pmstore hotproc.control.refresh 1 >/dev/null

# The workload: every 0.4 s one pmdash-fx process starts and lives 0.5 to 3.4 s.
workload() {
  local end=$((SECONDS + seconds + 4)) i=0
  while [ "$SECONDS" -lt "$end" ]; do
    "$work/pmdash-fx" "$(( (i * 7) % 30 / 10 )).$(( (i * 3) % 10 ))" &
    i=$((i + 1))
    sleep 0.4
  done
  wait
}
workload &
pids+=($!)
sleep 1

for v in 2 3; do
  echo "record-fixtures: recording $seconds s as V$v"
  pmlogger -V "$v" -c scripts/record-fixtures.config -T "${seconds}sec" -l "$work/v$v.log" "$work/hotproc-v$v" &
  pids+=($!)
done
wait "${pids[@]:1}"
pids=("${pids[0]}")

mkdir -p "$out"
rm -f "$out"/hotproc-v*
for v in 2 3; do
  pmlogcheck "$work/hotproc-v$v"
  xz -9 -c "$work/hotproc-v$v.0" > "$out/hotproc-v$v.0.xz"
  cp "$work/hotproc-v$v.meta" "$work/hotproc-v$v.index" "$out/"
  pmdumplog -L "$out/hotproc-v$v" | sed -n '1,6p'
done
ls -l "$out"
