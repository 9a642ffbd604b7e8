#!/usr/bin/env bash
# Installs what the test suite needs on a Debian machine and starts the services it talks to:
#   - Debian's chromium (Playwright drives /usr/bin/chromium; no browser is downloaded);
#   - Performance Co-Pilot: pcp, pcp-testsuite (the QA archives) and python3-pcp (the oracle);
#   - pmcd on localhost:44321, and pmproxy on localhost:44322 (its PCP relay);
#   - pcp-gui and xvfb, so benchmarks can time pmchart -o headless, and view files are checked
#     by pmchart's own parser (`pmchart -C`, headless through Qt's offscreen platform);
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
# zstd (zstd, pzstd): the CLI decodes .zst frames with it (src/node/xz-process.ts), and the
# .zst conformance tests recompress QA archives with it.
need=$(missing chromium xz-utils zstd)
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

# pmchart (pcp-gui) and Xvfb: the native side of the UI benchmarks (bench/browser-bench.ts).
need=$(missing pcp-gui xvfb xauth)
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

[ -x /usr/bin/chromium ] || { echo "setup: /usr/bin/chromium is missing after install" >&2; exit 1; }
/usr/bin/python3 -c 'from pcp import pmapi' || { echo "setup: python3-pcp is not importable by /usr/bin/python3" >&2; exit 1; }
[ -d /var/lib/pcp/testsuite/archives ] || { echo "setup: PCP QA archives are missing" >&2; exit 1; }
[ -x /usr/bin/pmchart ] && [ -d /var/lib/pcp/config/pmchart ] || { echo "setup: pmchart or its installed views (pcp-gui) are missing" >&2; exit 1; }
echo "setup: chromium $(/usr/bin/chromium --version 2>/dev/null | awk '{print $2}'), pmcd $(pminfo -h localhost -f pmcd.version | awk '/value/{print $2}' | tr -d '"') on localhost:44321, pmproxy on localhost:44322"
