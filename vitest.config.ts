import { defineConfig } from 'vitest/config';

// Three projects: `unit` needs nothing but Node; `conformance` compares pcp-core with libpcp
// (python3-pcp and the PCP tools), so it needs PCP installed by scripts/setup.sh and fails
// loudly when it is not; `restart` (*.restart.test.ts) restarts the machine's pmcd, so it
// runs on its own after `conformance`, never alongside other tests that talk to pmcd.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'server/**/*.test.ts', 'bin/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['**/*.conformance.test.ts', '**/*.restart.test.ts', 'node_modules/**', 'dist/**'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'conformance',
          include: ['src/**/*.conformance.test.ts', 'server/**/*.conformance.test.ts', 'test/**/*.conformance.test.ts'],
          globalSetup: ['test/require-pcp.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'restart',
          include: ['src/**/*.restart.test.ts', 'server/**/*.restart.test.ts'],
          globalSetup: ['test/require-pcp.ts'],
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
