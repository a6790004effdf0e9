// Builds the console into services/console/dist (static assets the API serves
// at /console/): the API types of @herald/client from the served OpenAPI
// document (the console's calls are checked against them), then Vite,
// then the bundle's size, which must stay under its budget (exit 1 otherwise).
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { writeApiTypes } from '@herald/client/generate';
import { CONSOLE_ROOT } from './console-root.ts';
import { BUNDLE_BUDGET_BYTES, bundleSize, formatBundleSize } from './bundle-size.ts';

export const DIST_DIR = join(CONSOLE_ROOT, 'dist');

export async function buildConsole(options: { quiet?: boolean } = {}): Promise<void> {
  await writeApiTypes();
  await rm(DIST_DIR, { recursive: true, force: true });
  await build({
    configFile: false,
    root: join(CONSOLE_ROOT, 'web'),
    base: '/console/',
    logLevel: options.quiet === true ? 'warn' : 'info',
    // Preact's JSX runtime; no framework plugin needed.
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    build: { outDir: DIST_DIR, emptyOutDir: true, assetsDir: 'assets', sourcemap: false, target: 'es2022', modulePreload: { polyfill: false } },
  });
  const size = await bundleSize(DIST_DIR);
  process.stdout.write(`console bundle (${DIST_DIR}):\n${formatBundleSize(size)}\n`);
  if (size.gzipped > BUNDLE_BUDGET_BYTES) throw new Error(`the console's bundle is ${size.gzipped} bytes gzipped, over its budget of ${BUNDLE_BUDGET_BYTES}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildConsole();
