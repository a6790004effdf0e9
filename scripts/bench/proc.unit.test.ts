import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { memoryOf, ProcessWatch, withDescendants } from './proc.ts';

describe('withDescendants', () => {
  it('adds children and grandchildren (a postmaster and its forked backends), nothing else', () => {
    const parents = new Map([
      [10, 1],
      [11, 10],
      [12, 11],
      [20, 1],
      [21, 20],
    ]);
    expect(withDescendants([10], parents).sort()).toEqual([10, 11, 12]);
    expect(withDescendants([], parents)).toEqual([]);
  });
});

/** A Node process that touches `megabytes` of memory and keeps it until killed. */
async function holding(megabytes: number) {
  const child = spawn(process.execPath, ['-e', `const b = Buffer.alloc(${megabytes} * 1024 * 1024, 1); process.stdout.write('ready'); setInterval(() => b[0]++, 1000);`], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(child.stdout, 'data');
  return child;
}

describe.runIf(process.platform === 'linux')('ProcessWatch', () => {
  it('gives a group of two processes its summed peak and the peak of its largest process', async () => {
    const large = await holding(96);
    const small = await holding(24);
    try {
      const watch = new ProcessWatch();
      watch.add('two', { pids: () => [large.pid!, small.pid!] });
      watch.add('one', small.pid);
      watch.sample();
      const largest = watch.processPeaks();
      // A peak (VmHWM) only grows, and a young Node process still allocates a little: read later, it is at least as high.
      expect(largest.two).toBeLessThanOrEqual(memoryOf(large.pid!).peak!);
      expect(largest.two).toBeGreaterThanOrEqual(96 * 1024 * 1024);
      expect(largest.one).toBeLessThanOrEqual(memoryOf(small.pid!).peak!);
      expect(largest.one).toBeGreaterThanOrEqual(24 * 1024 * 1024);
      expect(largest.one).toBeLessThan(96 * 1024 * 1024);
      // Summed, the group holds both.
      expect(watch.peaks().two).toBeGreaterThanOrEqual(largest.two! + 24 * 1024 * 1024);
    } finally {
      large.kill('SIGKILL');
      small.kill('SIGKILL');
    }
  });
});
