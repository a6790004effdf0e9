import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** services/console: the build's and the browser tests' base directory. */
export const CONSOLE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
