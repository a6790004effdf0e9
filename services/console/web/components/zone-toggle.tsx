import { shownZone, ZONE_STORAGE_KEY, zoneChoice } from '../lib/format.ts';

/**
 * Which zone every time on the page is in, and the switch between the
 * browser's zone and UTC (the zone a team spread over several zones shares).
 * The choice is kept in local storage; switching reloads so every time on
 * the page is formatted anew.
 */
const UTC_NAMES = new Set(['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT', 'Etc/Universal', 'Etc/Zulu']);

export function ZoneToggle() {
  const choice = zoneChoice();
  const other = choice === 'utc' ? 'your zone' : 'UTC';
  // A browser already in UTC has nothing to switch to.
  if (choice === 'browser' && UTC_NAMES.has(shownZone('browser'))) {
    return (
      <span class="zone-toggle" data-testid="zone">
        <span class="muted">Times in UTC</span>
      </span>
    );
  }
  return (
    <span class="zone-toggle" data-testid="zone">
      <span class="muted">Times in {shownZone(choice)}</span>{' '}
      <button
        type="button"
        class="link-button"
        onClick={() => {
          localStorage.setItem(ZONE_STORAGE_KEY, choice === 'utc' ? 'browser' : 'utc');
          window.location.reload();
        }}
      >
        Show {other}
      </button>
    </span>
  );
}
