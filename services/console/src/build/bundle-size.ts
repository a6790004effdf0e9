import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The console's budget: every asset (all screens), gzipped. */
export const BUNDLE_BUDGET_BYTES = 300 * 1024;
/** The sign-in page's JavaScript (the entry and what it preloads; screens load on their first visit), brotli-compressed. */
export const SIGN_IN_JS_BUDGET_BYTES = 120 * 1024;

export interface BundleSize {
  files: Array<{ file: string; bytes: number; gzipped: number }>;
  gzipped: number;
}

/** Sizes of every file under `dir` (the built console), raw and gzipped at level 9. */
export async function bundleSize(dir: string): Promise<BundleSize> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = await Promise.all(
    entries
      // Not the precompressed copies of each asset (.br, .gz).
      .filter((entry) => entry.isFile() && !/\.(br|gz)$/.test(entry.name))
      .map(async (entry) => {
        const path = join(entry.parentPath, entry.name);
        const content = await readFile(path);
        return { file: path.slice(dir.length + 1), bytes: content.length, gzipped: gzipSync(content, { level: 9 }).length };
      }),
  );
  files.sort((a, b) => b.gzipped - a.gzipped);
  return { files, gzipped: files.reduce((sum, file) => sum + file.gzipped, 0) };
}

export function formatBundleSize(size: BundleSize): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const lines = size.files.map((file) => `  ${file.file.padEnd(40)} ${kb(file.bytes).padStart(10)} ${kb(file.gzipped).padStart(10)} gzipped`);
  return [...lines, `  ${'total'.padEnd(40)} ${''.padStart(10)} ${kb(size.gzipped).padStart(10)} gzipped (budget ${kb(BUNDLE_BUDGET_BYTES)})`].join('\n');
}
