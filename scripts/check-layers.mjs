// The layers of src/pcp-core, checked (issue 17 item 6; Perfetto checks its layering the same
// way): each folder may import only the folders listed for it below, so the data path reads
// one way — time, io ← archive ← replay ← context ← derived, fetchgroup; pdu ← context — and
// a new dependency upwards fails `npm run lint` instead of growing a cycle. The root files
// (types.ts, errors.ts, units.ts, …) and time/ are the shared base. Tests and testing/
// helpers may reach further (they compare layers with each other). DEBT lists accepted
// exceptions, each with its reason; it is empty today.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = 'src/pcp-core';
const BASE = ['(root)', 'time'];
const ALLOWED = {
  '(root)': ['time'],
  time: ['(root)'],
  regex: BASE,
  io: BASE,
  views: [...BASE, 'regex'],
  fleet: BASE,
  archive: [...BASE, 'io'],
  pdu: [...BASE, 'io', 'archive'],
  replay: [...BASE, 'io', 'archive'],
  context: [...BASE, 'io', 'archive', 'pdu', 'replay', 'fleet', 'regex'],
  derived: [...BASE, 'io', 'archive', 'pdu', 'replay', 'context', 'regex'],
  fetchgroup: [...BASE, 'io', 'archive', 'pdu', 'replay', 'context', 'derived', 'regex'],
  'archive-writer': [...BASE, 'io', 'archive', 'replay', 'context'],
  export: [...BASE, 'io', 'archive', 'replay', 'context', 'derived', 'archive-writer'],
};
/**
 * Folders that may use only some root files: fleet (pmproxy's REST APIs) stands alone so the
 * worker, the CLI and the tests can take it without the archive/PDU stack.
 */
const ROOT_FILES = { fleet: ['errors', 'types'] };
/** Accepted exceptions: 'from -> to' with why. */
const DEBT = {};

const files = [];
const walk = (d) => {
  for (const f of readdirSync(d)) {
    const p = join(d, f);
    if (statSync(p).isDirectory()) {
      if (f !== 'testing') walk(p);
    } else if (f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts')) files.push(p);
  }
};
walk(ROOT);

const folderOf = (p) => {
  const parts = relative(ROOT, p).split('/');
  return parts.length === 1 ? '(root)' : parts[0];
};
const problems = [];
for (const f of files) {
  const from = folderOf(f);
  const allowed = ALLOWED[from];
  if (!allowed) {
    problems.push(`${f}: folder ${from} has no entry in scripts/check-layers.mjs (say what it may import)`);
    continue;
  }
  const text = readFileSync(f, 'utf8');
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^'";]*?from\s+'(\.[^']*)'/gm)) {
    const target = relative(ROOT, resolve(dirname(f), m[1]));
    if (target.startsWith('..')) {
      problems.push(`${f}: imports ${m[1]}, outside pcp-core`);
      continue;
    }
    const first = target.split('/')[0];
    // `./time` (a folder's index) is the folder; `./types` a root file.
    const isFolder = target.includes('/') || (existsSync(join(ROOT, first)) && statSync(join(ROOT, first)).isDirectory());
    const to = isFolder ? first : '(root)';
    const rootFiles = ROOT_FILES[from];
    if (to === '(root)' && rootFiles && !rootFiles.includes(first.replace(/\.ts$/, ''))) {
      problems.push(`${f}: ${from} may use only these root files: ${rootFiles.join(', ')} (${m[1]})`);
      continue;
    }
    if (to === from || allowed.includes(to) || DEBT[`${from} -> ${to}`]) continue;
    problems.push(`${f}: ${from} may not import ${to} (${m[1]}); allowed: ${allowed.join(', ')}`);
  }
}
// One testing convention for the whole tree (issue 17 item 6): support code for one module's
// tests lives in a `testing/` folder beside it, cross-module support (the PCP oracle,
// throwaway daemons, fixtures compared with libpcp) in test/, browser helpers in e2e/.
// Nothing that ships may import a testing/ folder, and test support outside testing/ under
// another name (`*.test-util.ts`, `*-test-helpers.ts`, `test-*.ts`) is refused.
const isTest = (f) => /\.(test|conformance\.test|restart\.test)\.tsx?$/.test(f);
const shipped = [];
const walkAll = (d, inTesting) => {
  for (const f of readdirSync(d)) {
    const p = join(d, f);
    if (statSync(p).isDirectory()) walkAll(p, inTesting || f === 'testing');
    else if (/\.tsx?$/.test(f) && !f.endsWith('.d.ts')) {
      if (!inTesting && /(\.test-util\.ts|test-helpers?\.ts|^test-[^/]*\.ts)$/.test(f)) {
        problems.push(`${p}: test support belongs in a testing/ folder beside the module it serves`);
      }
      if (!inTesting && !isTest(f)) shipped.push(p);
    }
  }
};
for (const top of ['src', 'server']) walkAll(top, false);
for (const f of shipped) {
  const text = readFileSync(f, 'utf8');
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^'";]*?from\s+'(\.[^']*)'/gm)) {
    if (/(^|\/)testing(\/|$)/.test(m[1]) || m[1].startsWith('../../test/') || /(^|\/)test\//.test(m[1])) {
      problems.push(`${f}: shipped code imports test support (${m[1]})`);
    }
  }
}

if (problems.length > 0) {
  process.stderr.write(`pcp-core layering:\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
  process.exit(1);
}
