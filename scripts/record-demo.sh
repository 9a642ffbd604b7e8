#!/usr/bin/env bash
# Records the bundled demo archive (public/demo/pmdash-demo.*): a v3 archive of about ten
# minutes at a one-second interval from the local pmcd, while scripts/demo/workload.py makes
# the numbers move. Per-process data comes only from hotproc restricted to the workload's own
# processes (command name pmdash-wl), so the archive holds no other process of this machine.
# The data volume and metadata are xz-compressed as pmlogger's own compression does.
#
# usage: scripts/record-demo.sh [SECONDS]   (default 600; needs pmcd and pmstore rights)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
out=public/demo
name=pmdash-demo

command -v pmlogger >/dev/null || { echo "record-demo: PCP is not installed (npm run setup)" >&2; exit 1; }
pminfo -h localhost hinv.ncpu >/dev/null || { echo "record-demo: pmcd is not answering on localhost" >&2; exit 1; }

work=$(mktemp -d)
old_config=$(pminfo -f hotproc.control.config | sed -n 's/^ *value "\(.*\)"$/\1/p')
old_refresh=$(pminfo -f hotproc.control.refresh | awk '/value/{print $2}')
cleanup() {
  [ -n "${wl_pid:-}" ] && kill "$wl_pid" 2>/dev/null || true
  pmstore hotproc.control.config "$old_config" >/dev/null || true
  pmstore hotproc.control.refresh "${old_refresh:-10}" >/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The workload runs through a link named pmdash-wl, so hotproc's predicate matches it alone.
ln -s /usr/bin/python3 "$work/pmdash-wl"  # Debian python3, not a pyenv shim
pmstore hotproc.control.config 'fname == "pmdash-wl"' >/dev/null
pmstore hotproc.control.refresh 1 >/dev/null

"$work/pmdash-wl" scripts/demo/workload.py "$((seconds + 5))" "$work" &
wl_pid=$!
sleep 2

echo "record-demo: recording $seconds s into $work/$name"
pmlogger -V 3 -c scripts/demo/pmlogger.config -t 1sec -T "${seconds}sec" -l "$work/pmlogger.log" "$work/$name"
wait "$wl_pid" || true
wl_pid=

pmlogcheck "$work/$name"
mkdir -p "$out"
rm -f "$out/$name".*
xz -9 --block-size=1MiB -c "$work/$name.0" > "$out/$name.0.xz"
xz -9 -c "$work/$name.meta" > "$out/$name.meta.xz"
cp "$work/$name.index" "$out/$name.index"
pmdumplog -L "$out/$name"
ls -l "$out"
