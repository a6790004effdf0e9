import { useMemo } from 'preact/hooks';
import type { NotificationRequest } from '../lib/draft.ts';
import { formatCount } from '../lib/format.ts';
import { previewOf } from '../lib/preview.ts';
import type { Platform } from '../lib/lock-screen.ts';
import { LockScreenPreview } from './composer-lock-screen.tsx';

/** A string field of the request as text (a template send may leave title and body out). */
const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** What APNs and FCM will receive, built by the senders' own payload builders, with sizes against the 4 KB limit. */
export function PayloadPreview({ request, platforms = ['ios', 'android'] }: { request: NotificationRequest; platforms?: readonly Platform[] }) {
  const preview = useMemo(() => {
    try {
      return previewOf(request);
    } catch {
      return undefined;
    }
  }, [request]);
  if (preview === undefined) return null;
  return (
    <aside class="preview" aria-label="Preview">
      <LockScreenPreview title={textOf(request.title)} body={textOf(request.body)} platforms={platforms} />
      <h2>What the providers receive</h2>
      <h3>APNs (iOS)</h3>
      <p class="muted">
        {formatCount(preview.apns.bytes)} of {formatCount(preview.limit)} bytes · headers {Object.entries(preview.apns.headers).map(([key, value]) => `${key}: ${value}`).join(', ')}
      </p>
      <pre class="json" data-testid="preview-apns">{JSON.stringify(preview.apns.payload, null, 2)}</pre>
      <h3>FCM (Android)</h3>
      <p class="muted">
        {formatCount(preview.fcm.bytes)} of {formatCount(preview.limit)} bytes
      </p>
      <pre class="json" data-testid="preview-fcm">{JSON.stringify(preview.fcm.message, null, 2)}</pre>
      {preview.problems.length === 0 ? null : (
        <ul class="field-errors">
          {preview.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
    </aside>
  );
}
