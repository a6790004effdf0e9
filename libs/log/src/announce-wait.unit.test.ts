import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { announceWait } from './announce-wait.ts';

describe('announceWait', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('says what it waits for once every interval until the wait ends, then stops', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = { warn: (fields: Record<string, unknown>) => void lines.push(fields) };
    let finish!: (value: string) => void;
    const waited = announceWait(logger, 'delivery-control read to its end', new Promise<string>((resolve) => (finish = resolve)), () => ({ behind: [{ partition: 0 }] }), 5_000);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(lines).toEqual([]);
    await vi.advanceTimersByTimeAsync(10_001);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ waiting_for: 'delivery-control read to its end', waited_ms: 5_000, behind: [{ partition: 0 }] });
    expect(typeof lines[0]!.since).toBe('string');
    finish('done');
    await expect(waited).resolves.toBe('done');
    await vi.advanceTimersByTimeAsync(20_000);
    expect(lines).toHaveLength(3);
  });

  it('passes a failure on and stops announcing', async () => {
    const lines: unknown[] = [];
    const waited = announceWait({ warn: (fields: unknown) => void lines.push(fields) }, 'x', Promise.reject(new Error('gone')));
    await expect(waited).rejects.toThrow('gone');
    await vi.advanceTimersByTimeAsync(20_000);
    expect(lines).toEqual([]);
  });
});
