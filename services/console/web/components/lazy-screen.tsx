import type { ComponentType } from 'preact';
import { lazy } from 'preact-iso';

/** Shown when a screen's code could not be fetched (offline, or the server restarted with a new build). */
function ScreenNotLoaded() {
  return (
    <section>
      <h1>This screen could not be loaded</h1>
      <div class="errors" role="alert">
        <p>Its code did not arrive: the connection may be down, or the console was updated since this page was opened.</p>
        <button type="button" class="retry" onClick={() => window.location.reload()}>
          Try again
        </button>
      </div>
    </section>
  );
}

/** A screen loaded on its first visit (its own chunk); a failed load shows why and a way to try again, never a blank page. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each screen has its own props (route params)
export function screen<P = any>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  return lazy(() => load().catch(() => ScreenNotLoaded as ComponentType<P>));
}
