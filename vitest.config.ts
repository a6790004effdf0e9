import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { NODE_FLAGS } from './libs/runtime/src/process-settings.ts';

export default defineConfig({
  test: {
    // Test files run kafkajs in-process too.
    execArgv: [...NODE_FLAGS],
    // The CLI in tests never picks up a developer's local mode (.herald/secret.key): a state dir nothing creates.
    env: { HERALD_STATE_DIR: join(tmpdir(), 'herald-tests-have-no-local-state') },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['libs/*/src/**/*.unit.test.ts', 'services/*/src/**/*.unit.test.ts', 'services/console/web/**/*.unit.test.ts', 'scripts/**/*.unit.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['libs/*/src/**/*.{int,e2e}.test.ts', 'services/*/src/**/*.{int,e2e}.test.ts', 'scripts/**/*.e2e.test.ts'],
          globalSetup: ['libs/testing/src/global-setup.ts'],
          testTimeout: 60_000,
          // .ci/run sets 1: on a loaded 2-core CI machine a real-infrastructure test can lose a race once; a test
          // that fails twice fails the run, and scripts/ci/summary.ts names every test that passed only on a retry.
          retry: Number(process.env.HERALD_TEST_RETRIES ?? 0),
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
