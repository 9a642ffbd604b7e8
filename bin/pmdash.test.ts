// The installed command as a user runs it (`npm run build` comes first in `npm test`): the
// version from package.json, help naming every subcommand, each command's own help, and an
// unknown command refused with a non-zero status.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const BIN = new URL('./pmdash.js', import.meta.url).pathname;
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const COMMANDS = ['serve', 'info', 'metrics', 'dump', 'values'];

describe('bin/pmdash.js', () => {
  it('prints the package version with --version and -V', () => {
    for (const flag of ['--version', '-V']) {
      const r = run(flag);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(`pmdash ${version}\n`);
    }
  });

  it('lists every command with --help, and each command has its own help', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    for (const c of COMMANDS) expect(r.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    for (const c of COMMANDS) {
      const h = run(c, '--help');
      expect(h.status, h.stderr).toBe(0);
      expect(h.stdout).toContain(`Usage: pmdash ${c}`);
    }
  });

  it('refuses an unknown command with a non-zero status and says which', () => {
    const r = run('frobnicate');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("pmdash: unknown command 'frobnicate'");
  });
});
