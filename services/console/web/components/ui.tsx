import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { formatCount, formatShare } from '../lib/format.ts';

/** Failures as a list; with `onRetry` (a load that failed), a button to try again beside them. */
export function Errors({ errors, onRetry }: { errors: readonly string[] | undefined; onRetry?: () => void }) {
  if (errors === undefined || errors.length === 0) return null;
  return (
    <div class="errors" role="alert">
      <ul>
        {errors.map((error) => (
          <li key={error}>{error}</li>
        ))}
      </ul>
      {onRetry === undefined ? null : (
        <button type="button" class="retry" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Loading({ when }: { when: boolean }) {
  return when ? <p class="muted" aria-live="polite">Loading…</p> : null;
}

/**
 * A table that becomes a list of cards on a narrow screen (styles.css): each
 * cell is labelled with its column's header, copied here from the header row
 * into `data-label` after every render (the labels are the console's own
 * words, shown by CSS).
 */
export function TableScroll({ label, children }: { label: string; children: ComponentChildren }) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    for (const table of box.current?.querySelectorAll('table') ?? []) {
      const headers = Array.from(table.querySelectorAll('thead th'), (th) => th.textContent?.trim() ?? '');
      for (const row of table.querySelectorAll('tbody tr')) {
        Array.from(row.children).forEach((cell, column) => cell.setAttribute('data-label', headers[column] ?? ''));
      }
    }
  });
  return (
    <div class="table-scroll cards" role="region" aria-label={label} tabIndex={0} ref={box}>
      {children}
    </div>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge badge-${status.replace(/[^a-z]/g, '')}`}>{status}</span>;
}

export function Stat({ label, value, of, testId }: { label: string; value: number; of?: number | undefined; testId?: string }) {
  return (
    <div class="stat">
      <span class="stat-label">{label}</span>
      <span class="stat-value" data-testid={testId}>
        {formatCount(value)}
      </span>
      {of === undefined ? null : <span class="stat-share">{formatShare(value, of)}</span>}
    </div>
  );
}

export function ProgressBar({ value, label }: { value: number; label: string }) {
  return (
    <div class="progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(value * 100)}>
      <div class="progress-fill" style={{ width: `${(value * 100).toFixed(1)}%` }} />
    </div>
  );
}

export interface PageInfo {
  page: number;
  pages: number;
  count: number;
  from: number;
  to: number;
}

/** Previous / next page links that keep the rest of the query. */
export function Pager({ pagination, href }: { pagination: PageInfo; href: (page: number) => string }) {
  const { page, pages, count, from, to } = pagination;
  return (
    <nav class="pager" aria-label="Pages">
      <span>
        {count === 0 ? 'None' : `${formatCount(from)}–${formatCount(to)} of ${formatCount(count)}`}
      </span>
      {page > 1 ? <a href={href(page - 1)}>Previous</a> : null}
      {page < pages ? <a href={href(page + 1)}>Next</a> : null}
    </nav>
  );
}

/** A button that asks again before doing something that cannot be undone. */
export function ConfirmButton({ label, detail, question, confirmLabel, onConfirm, disabled }: { label: string; detail?: string; question: string; confirmLabel: string; onConfirm: () => Promise<void>; disabled?: boolean }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!asking) {
    return (
      <button type="button" class="danger" disabled={disabled === true} aria-label={detail === undefined ? undefined : `${label}: ${detail}`} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <div class="confirm" role="group" aria-label={question}>
      <p>{question}</p>
      <button
        type="button"
        class="danger"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void onConfirm().finally(() => {
            setBusy(false);
            setAsking(false);
          });
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" onClick={() => setAsking(false)} disabled={busy}>
        Keep it
      </button>
    </div>
  );
}

/** Query string from an object, leaving out empty values. */
export function queryString(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
