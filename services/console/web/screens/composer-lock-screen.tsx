import { lengthHint, lockScreens, type LockScreen, type Platform } from '../lib/lock-screen.ts';

/** How the notification reads on each platform's lock screen, cut where the platform cuts it, with the length of title and body. */
export function LockScreenPreview({ title, body, platforms }: { title: string; body: string; platforms: readonly Platform[] }) {
  const screens = lockScreens(title, body, platforms);
  return (
    <section aria-labelledby="lock-screen-heading" data-testid="lock-screens">
      <h2 id="lock-screen-heading">On the lock screen</h2>
      <p class="hint" data-testid="hint-title">
        Title: {lengthHint(screens, 'title')}.
      </p>
      <p class="hint" data-testid="hint-body">
        Body: {lengthHint(screens, 'body')}.
      </p>
      <div class="lock-screens">
        {screens.map((screen) => (
          <LockCard key={screen.platform} screen={screen} />
        ))}
      </div>
      <p class="hint">Approximate: fonts, screen width and the OS version move the cut by a few characters.</p>
    </section>
  );
}

function LockCard({ screen }: { screen: LockScreen }) {
  return (
    <figure class={`lock lock-${screen.platform}`} data-testid={`lock-${screen.platform}`}>
      <figcaption>{screen.label}</figcaption>
      <div class="lock-notification">
        <p class="lock-app">
          <span>Your app</span> <span>now</span>
        </p>
        {screen.title.text === '' ? null : <p class="lock-title">{screen.title.text}</p>}
        <p class="lock-body">{screen.body.text === '' ? <span class="muted">(no body)</span> : screen.body.text}</p>
        {screen.collapsed === undefined ? null : (
          <p class="lock-collapsed">
            Collapsed: <span>{screen.collapsed.text}</span>
          </p>
        )}
      </div>
    </figure>
  );
}
