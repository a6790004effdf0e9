import { useState } from 'preact/hooks';
import { formatZone, wallTimeIn } from '../lib/format.ts';

/** Outcomes the list filters by (GET /api/v1/notifications?outcome=: at least one device had it). */
export const OUTCOMES = ['delivered', 'failed', 'invalid', 'cancelled', 'expired', 'capped', 'opened'] as const;
export type OutcomeFilter = (typeof OUTCOMES)[number];

export interface SearchQuery {
  q?: string | undefined;
  /** `YYYY-MM-DD`, days in the zone times are shown in. */
  from?: string | undefined;
  to?: string | undefined;
  outcome?: OutcomeFilter | undefined;
  tests?: boolean | undefined;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The first instant of a day in the zone times are shown in (the browser's: undefined, or the project's). */
export function dayStart(day: string, zone = formatZone()): string | undefined {
  if (!DAY.test(day)) return undefined;
  const midnight = zone === undefined ? new Date(`${day}T00:00:00`).getTime() : Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(midnight)) return undefined;
  return new Date(zone === undefined ? midnight : wallTimeIn(zone, midnight)).toISOString();
}

/** The day after, as `YYYY-MM-DD` (a range's end day is included: the API's `created_to` is exclusive). */
export function nextDay(day: string): string {
  const at = new Date(`${day}T12:00:00Z`);
  at.setUTCDate(at.getUTCDate() + 1);
  return at.toISOString().slice(0, 10);
}

/** The API's list query for a search as the page's address holds it. */
export function apiSearch(search: SearchQuery): { q?: string; created_from?: string; created_to?: string; outcome?: OutcomeFilter; include_tests?: boolean } {
  const from = search.from === undefined ? undefined : dayStart(search.from);
  const to = search.to === undefined || !DAY.test(search.to) ? undefined : dayStart(nextDay(search.to));
  return {
    ...(search.q === undefined || search.q.trim() === '' ? {} : { q: search.q.trim().slice(0, 200) }),
    ...(from === undefined ? {} : { created_from: from }),
    ...(to === undefined ? {} : { created_to: to }),
    ...(search.outcome === undefined ? {} : { outcome: search.outcome }),
    ...(search.tests === true ? { include_tests: true } : {}),
  };
}

/** Search by title, days (in the zone shown), outcome, and whether test sends are listed. */
export function NotificationSearch({ search, onSearch }: { search: SearchQuery; onSearch: (next: SearchQuery) => void }) {
  const [form, setForm] = useState<SearchQuery>(search);
  const set = (patch: Partial<SearchQuery>) => setForm((current) => ({ ...current, ...patch }));
  return (
    <form
      class="toolbar search"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(form);
      }}
    >
      <span class="search-field">
        <label for="search-q">Title</label>
        <input id="search-q" type="search" value={form.q ?? ''} onInput={(event) => set({ q: event.currentTarget.value })} />
      </span>
      <span class="search-field">
        <label for="search-from">From</label>
        <input id="search-from" type="date" value={form.from ?? ''} onInput={(event) => set({ from: event.currentTarget.value || undefined })} />
      </span>
      <span class="search-field">
        <label for="search-to">To</label>
        <input id="search-to" type="date" value={form.to ?? ''} onInput={(event) => set({ to: event.currentTarget.value || undefined })} />
      </span>
      <span class="search-field">
        <label for="search-outcome">Outcome</label>
        <select id="search-outcome" value={form.outcome ?? ''} onChange={(event) => set({ outcome: (OUTCOMES as readonly string[]).includes(event.currentTarget.value) ? (event.currentTarget.value as OutcomeFilter) : undefined })}>
        <option value="">Any</option>
        {OUTCOMES.map((outcome) => (
          <option key={outcome} value={outcome}>
            some {outcome}
          </option>
        ))}
        </select>
      </span>
      <label>
        <input type="checkbox" checked={form.tests === true} onChange={(event) => set({ tests: event.currentTarget.checked || undefined })} /> Test sends too
      </label>
      <button type="submit">Search</button>
    </form>
  );
}
