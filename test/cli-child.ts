// The pmdash CLI as a child process, for tests that need a process of its own (a resource
// limit, a real exit status and stderr, a crash that must not take the test runner with it).
// The CLI (src/cli/run-cli.ts) is bundled once per test file by esbuild into a temp dir,
// dependencies included, so the tests need no `npm run build`.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

export interface CliChild {
  /** Runs `pmdash ARGV...`; with `ulimitV`, under `ulimit -v` of that many KiB. */
  run(argv: readonly string[], options?: { ulimitV?: number; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<{ status: number | null; stdout: string; stderr: string }>;
  dispose(): void;
}

export async function bundleCli(): Promise<CliChild> {
  const dir = mkdtempSync(join(tmpdir(), 'pmdash-cli-'));
  const entry = join(dir, 'entry.ts');
  writeFileSync(entry, `import { runCli } from ${JSON.stringify(join(import.meta.dirname, '../src/cli/run-cli'))};\nprocess.exitCode = await runCli(process.argv.slice(2));\n`);
  const bundle = join(dir, 'cli.mjs');
  await build({
    entryPoints: [entry],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    // Bundled CommonJS dependencies call require().
    banner: { js: "import { createRequire as pmdashCreateRequire } from 'node:module'; const require = pmdashCreateRequire(import.meta.url);" },
  });
  return {
    run(argv, options = {}) {
      const cmd = options.ulimitV === undefined ? process.execPath : 'bash';
      // bash is found on this process's PATH; a PATH in `env` applies to pmdash only.
      const args = options.ulimitV === undefined ? [bundle, ...argv] : ['-c', `ulimit -v ${options.ulimitV} && PATH="$PMDASH_CHILD_PATH" exec "$0" "$@"`, process.execPath, bundle, ...argv];
      const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, PMDASH_CHILD_PATH: options.env?.PATH ?? process.env.PATH };
      if (options.ulimitV !== undefined) env.PATH = process.env.PATH;
      return new Promise((resolve, reject) => {
        const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
        child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
        const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
        child.on('error', reject);
        child.on('close', (status) => {
          clearTimeout(timer);
          resolve({ status, stdout, stderr });
        });
      });
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
