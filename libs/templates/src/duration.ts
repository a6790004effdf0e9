/** The longest `decide_after` an A/B send may take: a held request outlives it by DELIVERY_MAX_AGE_MS only. */
export const MAX_DECIDE_AFTER_SECONDS = 7 * 86_400;

const ISO_DURATION = /^P(?:(\d{1,4})D)?(?:T(?:(\d{1,6})H)?(?:(\d{1,8})M)?(?:(\d{1,9})S)?)?$/;

/**
 * Seconds of an ISO 8601 duration of days, hours, minutes and seconds
 * (`PT2H`, `P1DT30M`, `PT5S`); undefined for anything else (years, months
 * and weeks have no fixed length here, fractions are not taken) or a zero
 * duration (pure).
 */
export function parseIsoDuration(text: string): number | undefined {
  const match = ISO_DURATION.exec(text);
  if (match === null || text === 'P' || text.endsWith('T')) return undefined;
  const [, days, hours, minutes, seconds] = match.map((part) => (part === undefined ? 0 : Number(part)));
  const total = days! * 86_400 + hours! * 3_600 + minutes! * 60 + seconds!;
  return total > 0 ? total : undefined;
}
