import { Format } from 'typebox/format';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '@herald/testing/seeded-random';
import { isCanonicalUtc, isDateTime } from './date-time.ts';

describe('isDateTime', () => {
  it("answers as typebox's RFC 3339 check for Herald's timestamps, their corruptions and other forms", () => {
    const random = seededRandom(28);
    const samples: string[] = ['2024-02-29T00:00:00.000Z', '2023-02-29T00:00:00.000Z', '1900-02-29T12:00:00.000Z', '2000-02-29T12:00:00.000Z', '2026-11-28T23:59:60.000Z', '2026-12-31T23:59:59.999Z', '2026-11-28T17:40:14.123+01:00', '2026-11-28t17:40:14Z', '2026-11-28T17:40:14.123Z[Europe/Paris]', ''];
    const alphabet = '0123456789-T:.Zz+ x';
    for (let i = 0; i < 20_000; i++) {
      const base = new Date(Math.floor(random() * 2 ** 42) - 2 ** 40).toISOString();
      const chars = [...base];
      // About half corrupted: a character replaced (a digit, a separator, out-of-range fields), dropped or added.
      const change = random();
      const at = Math.floor(random() * chars.length);
      if (change < 0.3) chars[at] = alphabet[Math.floor(random() * alphabet.length)]!;
      else if (change < 0.4) chars.splice(at, 1);
      else if (change < 0.5) chars.splice(at, 0, alphabet[Math.floor(random() * alphabet.length)]!);
      samples.push(chars.join(''));
    }
    for (let month = 0; month <= 13; month++) for (let day = 0; day <= 32; day++) samples.push(`2024-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T24:60:61.000Z`, `2023-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T23:59:59.000Z`);
    let canonical = 0;
    for (const sample of samples) {
      expect([sample, isDateTime(sample)]).toEqual([sample, Format.IsDateTime(sample)]);
      if (isCanonicalUtc(sample)) canonical++;
    }
    // The fast path decided most of them (not everything fell through to typebox).
    expect(canonical).toBeGreaterThan(10_000);
  });

  it("is typebox's date-time format once the events codec is loaded", async () => {
    await import('./codec.ts');
    expect(Format.Get('date-time')).toBe(isDateTime);
  });
});
