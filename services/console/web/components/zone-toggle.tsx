import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client.ts';
import { browserZone, knownZone, PROJECT_ZONE_STORAGE_KEY, projectZone, shownZone, ZONE_STORAGE_KEY, zoneChoice } from '../lib/format.ts';

const PROJECT_ZONE_CHANGED = 'herald:project-zone';

/** Keeps the project's zone as the API gives it (the switch follows it at once); true when it changed. */
export function rememberProjectZone(zone: string): boolean {
  if (!knownZone(zone) || zone === projectZone()) return false;
  localStorage.setItem(PROJECT_ZONE_STORAGE_KEY, zone);
  window.dispatchEvent(new Event(PROJECT_ZONE_CHANGED));
  return true;
}

/**
 * Which zone every time on the page is in, and the switch between the
 * browser's zone and the project's (GET /api/v1/project: the zone a team
 * spread over several zones shares). The choice is kept in local storage;
 * switching reloads so every time on the page is formatted anew. The
 * project's zone is read again on each load: changed meanwhile (the
 * settings screen, another member), the page follows it.
 */
export function ZoneToggle() {
  const choice = zoneChoice();
  const [project, setProject] = useState(projectZone());
  useEffect(() => {
    const follow = () => setProject(projectZone());
    window.addEventListener(PROJECT_ZONE_CHANGED, follow);
    return () => window.removeEventListener(PROJECT_ZONE_CHANGED, follow);
  }, []);
  useEffect(() => {
    let live = true;
    void api.GET('/api/v1/project').then(
      ({ data }) => {
        if (!live || data === undefined) return;
        if (rememberProjectZone(data.data.timezone) && choice === 'project') window.location.reload();
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  const shown = shownZone(choice);
  const other = choice === 'project' ? browserZone() : project;
  // Both zones the same: nothing to switch to.
  if (other === shown) {
    return (
      <span class="zone-toggle" data-testid="zone">
        <span class="muted">Times in {shown}</span>
      </span>
    );
  }
  return (
    <span class="zone-toggle" data-testid="zone">
      <span class="muted">Times in {shown}</span>{' '}
      <button
        type="button"
        class="link-button"
        onClick={() => {
          localStorage.setItem(ZONE_STORAGE_KEY, choice === 'project' ? 'browser' : 'project');
          window.location.reload();
        }}
      >
        {choice === 'project' ? `Show your zone (${other})` : `Show project zone (${other})`}
      </button>
    </span>
  );
}
