#!/usr/bin/env bash
# Installs what the test suite needs on a Debian machine and starts the services it talks to:
#   - Debian's chromium (Playwright drives /usr/bin/chromium; no browser is downloaded);
#   - Performance Co-Pilot: pcp, pcp-testsuite (the QA archives) and python3-pcp (the oracle);
#   - pmcd on localhost:44321, and pmproxy on localhost:44322 (its PCP relay);
#   - a key-value store for pmproxy's /series (valkey-server where the distribution has it,
#     else Debian's redis-server) on localhost:6379, started without systemd, and pmproxy
#     with series enabled against it (the fleet tests load QA archives with pmseries --load);
#   - pcp-gui and xvfb, so benchmarks can time pmchart -o headless, and view files are checked
#     by pmchart's own parser (`pmchart -C`, headless through Qt's offscreen platform);
#   - gcc and libpcp3-dev, so the replay benchmark can build its libpcp loop;
# Idempotent: a second run only checks. Needs root (or sudo) for the first run.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: run as root (or install sudo): apt-get is needed" >&2; exit 1; }
  SUDO="sudo"
fi

missing() { # prints the packages among "$@" that dpkg does not have installed
  for p in "$@"; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
  done
}

apt_updated=""
apt_install() {
  [ -n "$apt_updated" ] || { $SUDO apt-get update -qq; apt_updated=1; }
  "$@"
}

# xz-utils: the CLI decodes .xz volumes with the system's xz (src/node/xz-process.ts).
# curl: the check of pmproxy's /series below.
# zstd (zstd, pzstd): the CLI decodes .zst frames with it (src/node/xz-process.ts), and the
# .zst conformance tests recompress QA archives with it.
need=$(missing chromium xz-utils curl zstd)
if [ -n "$need" ]; then
  echo "setup: installing $need"
  apt_install $SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
fi

pcp_pkgs="pcp pcp-testsuite python3-pcp"
need=$(missing $pcp_pkgs)
if [ -n "$need" ]; then
  echo "setup: installing $need"
  # pcp's maintainer scripts start services with systemctl, which fails where systemd is not
  # PID 1 (containers, CI). A do-nothing systemctl first on PATH lets configuration finish;
  # pmcd is started below through its init script instead.
  shim=$(mktemp -d)
  trap 'rm -rf "$shim"' EXIT
  printf '#!/bin/sh\nexit 0\n' > "$shim/systemctl"
  chmod +x "$shim/systemctl"
  apt_install $SUDO env PATH="$shim:$PATH" apt-get install -y -qq --no-install-recommends $need >/dev/null || true
  $SUDO env PATH="$shim:$PATH" dpkg --configure -a
  still=$(missing $pcp_pkgs)
  [ -z "$still" ] || { echo "setup: failed to install: $still" >&2; exit 1; }
fi

# pmchart (pcp-gui) and Xvfb: the native side of the UI benchmarks (bench/browser-bench.ts);
# gcc and libpcp3-dev: the bench builds a small C replay loop against libpcp
# (bench/libpcp-interp-loop.c, bench/replay-bench.ts).
need=$(missing pcp-gui xvfb xauth gcc libpcp3-dev)
if [ -n "$need" ]; then
  echo "setup: installing $need"
  apt_install $SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
fi

$SUDO mkdir -p /run/pcp
$SUDO chown pcp:pcp /run/pcp 2>/dev/null || true

pmcd_up() { pminfo -h localhost hinv.ncpu >/dev/null 2>&1; }
if ! pmcd_up; then
  echo "setup: starting pmcd"
  $SUDO /etc/init.d/pmcd start >/dev/null
  for _ in $(seq 1 30); do pmcd_up && break; sleep 1; done
  pmcd_up || { echo "setup: pmcd did not start on localhost:44321" >&2; exit 1; }
fi

# pmproxy on localhost:44322, for the live tests of its PCP relay (pmcd@proxy targets).
# `-h localhost@localhost` makes pminfo go through that relay, so it checks the whole path.
pmproxy_up() { pminfo -h localhost@localhost hinv.ncpu >/dev/null 2>&1; }
if ! pmproxy_up; then
  echo "setup: starting pmproxy"
  $SUDO /etc/init.d/pmproxy start >/dev/null
  for _ in $(seq 1 30); do pmproxy_up && break; sleep 1; done
  pmproxy_up || { echo "setup: pmproxy did not start on localhost:44322 (or its PCP relay is off)" >&2; exit 1; }
fi

# The store behind pmproxy's /series REST API: valkey-server where the distribution has it
# (not in bookworm), else redis-server. Started without systemd (containers, CI), daemonized,
# as its own user, with the package's configuration (localhost:6379, protected mode).
kv_pkg=redis-server
has_candidate() { apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [0-9]'; }
# Without package lists apt-cache knows neither; read them first, then choose.
if [ -n "$(missing valkey-server redis-server | tr -d '\n')" ] && ! has_candidate redis-server && ! has_candidate valkey-server && [ -z "$apt_updated" ]; then
  $SUDO apt-get update -qq
  apt_updated=1
fi
if has_candidate valkey-server; then kv_pkg=valkey-server; fi
if [ -z "$(missing valkey-server)" ]; then kv_pkg=valkey-server; fi
need=$(missing "$kv_pkg")
if [ -n "$need" ]; then
  echo "setup: installing $need"
  # Its maintainer scripts try to start the service (denied or failing without systemd); it is
  # started below instead.
  apt_install $SUDO apt-get install -y -qq --no-install-recommends "$need" >/dev/null
fi
if [ "$kv_pkg" = valkey-server ]; then kv_bin=valkey-server kv_cli=valkey-cli kv_user=valkey kv_conf=/etc/valkey/valkey.conf
else kv_bin=redis-server kv_cli=redis-cli kv_user=redis kv_conf=/etc/redis/redis.conf; fi
kv_up() { [ "$($kv_cli -h localhost -p 6379 ping 2>/dev/null)" = PONG ]; }
if ! kv_up; then
  echo "setup: starting $kv_bin on localhost:6379"
  $SUDO install -d -o "$kv_user" -g "$kv_user" "/run/${kv_user}"
  $SUDO runuser -u "$kv_user" -- "$kv_bin" "$kv_conf" --daemonize yes --port 6379 --supervised no
  for _ in $(seq 1 30); do kv_up && break; sleep 1; done
  kv_up || { echo "setup: $kv_bin did not start on localhost:6379" >&2; exit 1; }
fi

# pmproxy's series (and the store connection) must be on; Debian's pmproxy.conf has them on
# against localhost:6379 already: checked, not rewritten.
pmproxy_conf=/etc/pcp/pmproxy/pmproxy.conf
conf_on() { # conf_on SECTION KEY: the key is "true" in that [section]
  awk -v s="[$1]" -v k="$2" '$0 ~ /^\[/ {in_s = ($0 == s)} in_s && $1 == k && $3 == "true" {f = 1} END {exit !f}' "$pmproxy_conf"
}
for check in "pmproxy redis.enabled" "redis enabled" "pmseries enabled"; do
  # shellcheck disable=SC2086
  conf_on $check || { echo "setup: $pmproxy_conf does not enable series ([${check% *}] ${check#* } = true); enable it and rerun" >&2; exit 1; }
done
grep -Eq '^servers = (localhost|127\.0\.0\.1):6379$' "$pmproxy_conf" || { echo "setup: $pmproxy_conf [redis] servers is not localhost:6379" >&2; exit 1; }

# pmproxy connects to the store when it starts; one started before the store answers /series
# with empty bodies (while /series/ping still says success). So only then is it restarted,
# once, and its PCP relay checked again.
series_up() { curl -s -m 5 'http://localhost:44322/series/sources?match=*' | grep -q '^\['; }
if ! series_up; then
  echo "setup: restarting pmproxy (its /series is not connected to the store)"
  $SUDO /etc/init.d/pmproxy restart >/dev/null
  for _ in $(seq 1 30); do series_up && pmproxy_up && break; sleep 1; done
  series_up || { echo "setup: pmproxy's /series does not answer on localhost:44322 after a restart" >&2; exit 1; }
  pmproxy_up || { echo "setup: pmproxy's PCP relay does not answer after its restart" >&2; exit 1; }
fi

[ -x /usr/bin/chromium ] || { echo "setup: /usr/bin/chromium is missing after install" >&2; exit 1; }
/usr/bin/python3 -c 'from pcp import pmapi' || { echo "setup: python3-pcp is not importable by /usr/bin/python3" >&2; exit 1; }
[ -d /var/lib/pcp/testsuite/archives ] || { echo "setup: PCP QA archives are missing" >&2; exit 1; }
[ -x /usr/bin/pmchart ] && [ -d /var/lib/pcp/config/pmchart ] || { echo "setup: pmchart or its installed views (pcp-gui) are missing" >&2; exit 1; }
echo "setup: chromium $(/usr/bin/chromium --version 2>/dev/null | awk '{print $2}'), pmcd $(pminfo -h localhost -f pmcd.version | awk '/value/{print $2}' | tr -d '"') on localhost:44321, pmproxy on localhost:44322 (series on $kv_bin localhost:6379)"
