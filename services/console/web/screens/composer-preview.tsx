import { useMemo } from 'preact/hooks';
import type { NotificationRequest } from '../lib/draft.ts';
import { formatCount } from '../lib/format.ts';
import { previewOf } from '../lib/preview.ts';
import type { Platform } from '../lib/lock-screen.ts';
import { LockScreenPreview } from './composer-lock-screen.tsx';

/** A string field of the request as text (a template send may leave title and body out). */
const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** `key: value` pairs of headers, as one line. */
const headerText = (headers: Record<string, string | number>): string =>
  Object.entries(headers)
    .map(([key, value]) => `${key}: ${value}`)
    .join(', ');

/**
 * What APNs, FCM, Web Push and Push Kit will receive, built by the senders'
 * own payload builders, each with its size against its own limit. Every
 * provider is shown whatever the audience: the API refuses a notification
 * too large for any of them, so each one's size matters to every send.
 */
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
      <ProviderSection heading="APNs (iOS)" testId="preview-apns" json={preview.apns.payload} bytes={preview.apns.bytes} limit={preview.limit} headers={headerText(preview.apns.headers)} />
      <ProviderSection heading="FCM (Android)" testId="preview-fcm" json={preview.fcm.message} bytes={preview.fcm.bytes} limit={preview.limit} />
      <ProviderSection
        heading="Web Push (browsers)"
        testId="preview-webpush"
        json={preview.webpush.payload}
        bytes={preview.webpush.bytes}
        limit={preview.webpush.limit}
        unit="bytes of plaintext (4,096 once encrypted)"
        headers={headerText(preview.webpush.headers)}
      />
      <ProviderSection heading="Push Kit (Huawei)" testId="preview-hms" json={preview.hms.message} bytes={preview.hms.bytes} limit={preview.hms.limit} />
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

function ProviderSection({ heading, testId, json, bytes, limit, unit = 'bytes', headers }: { heading: string; testId: string; json: unknown; bytes: number; limit: number; unit?: string; headers?: string }) {
  return (
    <>
      <h3>{heading}</h3>
      <p class="muted">
        {formatCount(bytes)} of {formatCount(limit)} {unit}
        {headers === undefined ? null : ` · headers ${headers}`}
      </p>
      <pre class="json" data-testid={testId}>
        {JSON.stringify(json, null, 2)}
      </pre>
    </>
  );
}
