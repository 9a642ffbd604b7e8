// Playwright globalSetup: the Fleet specs need the QA archives of hosts vm00, vm01 and
// sourceware.org (bug1057: the Overview's metrics, for the drill-down) in the
// series store behind the local pmproxy (scripts/setup.sh runs redis and pmproxy with series
// enabled). Loads each with `pmseries --load` unless its host is already there; loading the
// same archive again would only rewrite the same series.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export const FLEET_ARCHIVES = [
  { archive: 'multi-vm00', host: 'vm00' },
  { archive: 'multi-vm01', host: 'vm01' },
  { archive: 'bug1057', host: 'sourceware.org' },
] as const;
const QA = '/var/lib/pcp/testsuite/archives';

export default function loadFleetStore(): void {
  const known = execFileSync('pmseries', ['-v', 'hostname'], { encoding: 'utf8', timeout: 30_000 });
  for (const { archive, host } of FLEET_ARCHIVES) {
    if (known.includes(`"${host}"`)) continue;
    execFileSync('pmseries', ['--load', join(QA, archive)], { encoding: 'utf8', timeout: 120_000 });
    const after = execFileSync('pmseries', ['-v', 'hostname'], { encoding: 'utf8', timeout: 30_000 });
    if (!after.includes(`"${host}"`)) throw new Error(`pmseries --load ${archive}: host ${host} is still not in the series store (pmseries -v hostname: ${after.trim()})`);
  }
}
