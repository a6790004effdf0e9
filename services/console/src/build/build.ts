// Builds the console into services/console/dist (static assets the API serves
// at /console/): the API types of @herald/client from the served OpenAPI
// document (the console's calls are checked against them), then Vite,
// then the bundle's size, which must stay under its budget (exit 1 otherwise).
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { writeApiTypes } from '@herald/client/generate';
import { CONSOLE_ROOT } from './console-root.ts';
import { BUNDLE_BUDGET_BYTES, bundleSize, formatBundleSize, SIGN_IN_JS_BUDGET_BYTES } from './bundle-size.ts';
import { entryScripts, precompress } from './compress.ts';

export const DIST_DIR = join(CONSOLE_ROOT, 'dist');

/** Builds into `outDir` (default DIST_DIR: what the API serves; browser tests running side by side build a copy each). */
export async function buildConsole(options: { quiet?: boolean; outDir?: string } = {}): Promise<void> {
  const outDir = options.outDir ?? DIST_DIR;
  await writeApiTypes();
  await rm(outDir, { recursive: true, force: true });
  await build({
    configFile: false,
    root: join(CONSOLE_ROOT, 'web'),
    base: '/console/',
    logLevel: options.quiet === true ? 'warn' : 'info',
    // Preact's JSX runtime; no framework plugin needed.
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    build: { outDir, emptyOutDir: true, assetsDir: 'assets', sourcemap: false, target: 'es2022', modulePreload: { polyfill: false } },
  });
  const size = await bundleSize(outDir);
  await precompress(outDir);
  const signIn = await signInScriptBytes(outDir);
  process.stdout.write(`console bundle (${outDir}):\n${formatBundleSize(size)}\n  sign-in page's JavaScript: ${(signIn / 1024).toFixed(1)} KB brotli (budget ${SIGN_IN_JS_BUDGET_BYTES / 1024} KB)\n`);
  if (size.gzipped > BUNDLE_BUDGET_BYTES) throw new Error(`the console's bundle is ${size.gzipped} bytes gzipped, over its budget of ${BUNDLE_BUDGET_BYTES}`);
  if (signIn > SIGN_IN_JS_BUDGET_BYTES) throw new Error(`the sign-in page's JavaScript is ${signIn} bytes brotli, over its budget of ${SIGN_IN_JS_BUDGET_BYTES}`);
}

/** Brotli bytes of the scripts the sign-in page (index.html) loads first: the entry and its preloaded chunks. */
async function signInScriptBytes(dir: string): Promise<number> {
  const scripts = entryScripts(await readFile(join(dir, 'index.html'), 'utf8'));
  const sizes = await Promise.all(scripts.map(async (src) => (await stat(join(dir, `${src.replace(/^\/console\//, '')}.br`))).size));
  return sizes.reduce((sum, bytes) => sum + bytes, 0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildConsole();
