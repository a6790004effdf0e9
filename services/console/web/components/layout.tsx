import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { signOut } from '../api/session.ts';
import { OfflineBanner } from './online.tsx';
import { ZoneToggle } from './zone-toggle.tsx';

const LINKS = [
  { href: '/console/', label: 'Overview', match: (path: string) => path === '/console' || path === '/console/' },
  { href: '/console/notifications', label: 'Notifications', match: (path: string) => path.startsWith('/console/notifications') },
  { href: '/console/compose', label: 'Compose', match: (path: string) => path.startsWith('/console/compose') },
  { href: '/console/devices', label: 'Devices', match: (path: string) => path.startsWith('/console/devices') },
  { href: '/console/topics', label: 'Topics', match: (path: string) => path.startsWith('/console/topics') },
  { href: '/console/templates', label: 'Templates', match: (path: string) => path.startsWith('/console/templates') },
  { href: '/console/segments', label: 'Segments', match: (path: string) => path.startsWith('/console/segments') },
  { href: '/console/webhooks', label: 'Webhooks', match: (path: string) => path.startsWith('/console/webhooks') },
  { href: '/console/settings', label: 'Settings', match: (path: string) => path.startsWith('/console/settings') },
];

export function Layout({ children }: { children: ComponentChildren }) {
  const { path } = useLocation();
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Herald</span>
        <nav aria-label="Main">
          {LINKS.map((link) => (
            <a key={link.href} href={link.href} aria-current={link.match(path) ? 'page' : undefined}>
              {link.label}
            </a>
          ))}
        </nav>
        <ZoneToggle />
        <button type="button" class="link-button" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      <OfflineBanner />
      <main id="main">{children}</main>
    </>
  );
}

/** Sets the document title for the screen. */
export function useTitle(title: string): void {
  document.title = `${title} · Herald console`;
}
