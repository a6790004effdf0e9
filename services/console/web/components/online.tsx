import { useEffect, useState } from 'preact/hooks';

/** Whether the browser says it has a network connection, kept up to date. */
export function useOnline(): boolean {
  const [online, setOnline] = useState(navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return online;
}

/** A banner while offline: what is on screen may be old, and nothing can be sent or changed until the connection is back. */
export function OfflineBanner() {
  const online = useOnline();
  return (
    <div role="status" class={online ? 'visually-hidden' : 'offline'} data-testid="offline">
      {online ? '' : 'You are offline: what you see may be out of date, and nothing can be sent or changed until the connection is back.'}
    </div>
  );
}
