import { describe, expect, it } from 'vitest';
import { furthest, parseIndexOffsets, partitionsBehind, residentUnder } from './index-watch.ts';

describe('index offsets from /metrics', () => {
  const page = [
    '# HELP herald_audience_index_next_offset The next device-events offset …',
    '# TYPE herald_audience_index_next_offset gauge',
    'herald_audience_index_next_offset{partition="0"} 16667',
    'herald_audience_index_next_offset{partition="3"} 120',
    'herald_audience_index_records_applied_total{partition="0"} 16667',
  ].join('\n');

  it('reads the next offset per partition and nothing else', () => {
    expect([...parseIndexOffsets(page)]).toEqual([
      [0, 16667],
      [3, 120],
    ]);
  });

  it('takes the furthest instance per partition, and names the partitions still behind the ends', () => {
    const applied = furthest([parseIndexOffsets(page), new Map([[3, 500]])]);
    expect([...applied]).toEqual([
      [0, 16667],
      [3, 500],
    ]);
    const ends = new Map([
      [0, 16667],
      [1, 0],
      [3, 501],
      [5, 7],
    ]);
    expect(partitionsBehind(applied, ends)).toEqual([3, 5]);
    expect(partitionsBehind(applied, new Map([[0, 16667]]))).toEqual([]);
  });
});

describe('residentUnder', () => {
  it('sums Rss of the mappings of files under the directory', () => {
    const smaps = [
      '7f0000000000-7f0000100000 r--s 00000000 08:01 1234                       /tmp/x/delivery-index-1/index/data.mdb',
      'Size:               1024 kB',
      'Rss:                 300 kB',
      'Pss:                 300 kB',
      '7f0000100000-7f0000200000 r-xp 00000000 08:01 99                         /usr/lib/libc.so.6',
      'Rss:                 900 kB',
      '7f0000200000-7f0000300000 rw-p 00000000 00:00 0 ',
      'Rss:                  64 kB',
      '7f0000300000-7f0000400000 r--s 00000000 08:01 1235                       /tmp/x/delivery-index-1/index/lock.mdb',
      'Rss:                   8 kB',
      '7f0000400000-7f0000500000 r--s 00000000 08:01 1236                       /tmp/x/delivery-index-10/index/data.mdb',
      'Rss:                 500 kB',
    ].join('\n');
    expect(residentUnder(smaps, '/tmp/x/delivery-index-1')).toBe(308 * 1024);
    expect(residentUnder(smaps, '/nowhere')).toBe(0);
  });
});
