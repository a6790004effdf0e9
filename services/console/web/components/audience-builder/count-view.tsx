import { formatCount } from '../../lib/format.ts';
import type { CountState } from './use-count.ts';

export const PLATFORM_LABELS: Record<string, string> = { ios: 'iOS', android: 'Android', web: 'web', huawei: 'Huawei' };

/** The count by platform, or what keeps it from showing, with a way to ask again. */
export function CountView({ count, recount, empty }: { count: CountState; recount: () => void; empty: string }) {
  return (
    <div class="audience" aria-live="polite" data-testid="builder-count">
      {count.state === 'idle' ? (
        empty
      ) : count.state === 'counting' ? (
        'Counting…'
      ) : count.state === 'counted' ? (
        <>
          Reaches <strong data-testid="builder-total">{formatCount(count.count.total)}</strong> active {count.count.total === 1 ? 'device' : 'devices'} now (
          {Object.entries(count.count.by_platform)
            .map(([platform, n]) => `${PLATFORM_LABELS[platform] ?? platform} ${formatCount(n)}`)
            .join(', ')}
          ).
        </>
      ) : count.state === 'refused' ? (
        <span class="field-errors">Not counted: the API refused the audience (the problems are shown where they are).</span>
      ) : (
        <span class="field-errors" data-testid="builder-count-failed">
          Could not count the audience. {count.messages.join(' ')}
        </span>
      )}{' '}
      {count.state === 'idle' || count.state === 'counting' ? null : (
        <button type="button" class="link-button" onClick={recount}>
          Count again
        </button>
      )}
    </div>
  );
}
