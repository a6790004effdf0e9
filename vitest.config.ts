import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['libs/*/src/**/*.unit.test.ts', 'services/*/src/**/*.unit.test.ts', 'scripts/**/*.unit.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['libs/*/src/**/*.int.test.ts', 'services/*/src/**/*.{int,e2e}.test.ts'],
          globalSetup: ['libs/testing/src/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
