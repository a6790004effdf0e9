import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** What is worth compressing: text. */
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map)$/;

export const brotli = (content: Buffer): Buffer => brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } });
export const gzip = (content: Buffer): Buffer => gzipSync(content, { level: 9 });

/**
 * Writes `<file>.br` and `<file>.gz` beside every text asset under `dir`, at
 * the highest levels (once, at build time), for the API to serve by the
 * request's Accept-Encoding (@fastify/static's preCompressed).
 */
export async function precompress(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name)).map((entry) => join(entry.parentPath, entry.name));
  await Promise.all(
    files.map(async (file) => {
      const content = await readFile(file);
      await writeFile(`${file}.br`, brotli(content));
      await writeFile(`${file}.gz`, gzip(content));
    }),
  );
  return files.length;
}

/** The scripts a page loads before anything else: its module entry and the chunks it preloads, as the built index.html names them. */
export function entryScripts(indexHtml: string): string[] {
  const scripts = [...indexHtml.matchAll(/<script[^>]+src="([^"]+\.js)"/g), ...indexHtml.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)].map((match) => match[1]!);
  return [...new Set(scripts)];
}
