import { formatCount, formatRelative, formatTime } from '../lib/format.ts';
import { progressOf, type ProgressInput } from '../lib/progress.ts';
import { ProgressBar } from './ui.tsx';

/** The bar's accessible label and the line under it: devices with an outcome of the audience so far. */
export function progressText(input: ProgressInput, now = Date.now()): string {
  const view = progressOf(input, now);
  if (view.audience === 0) return view.growing ? 'The audience is being resolved: no device has an outcome yet' : 'No device in the audience';
  return `${formatCount(view.done)} of ${view.growing ? 'at least ' : ''}${formatCount(view.audience)} devices have an outcome`;
}

/** A compact bar for lists: right at every moment (never full while sending, never more sent than targeted). */
export function ProgressCell({ notification }: { notification: ProgressInput }) {
  const view = progressOf(notification, Date.now());
  if (!view.active) return <>–</>;
  return <ProgressBar value={view.fraction} label={progressText(notification)} />;
}

/** The report's progress: the bar, what it measures, the pace and the ETA. */
export function SendProgress({ notification }: { notification: ProgressInput & { priority_lane?: string | null | undefined } }) {
  const now = Date.now();
  const view = progressOf(notification, now);
  if (!view.active) return null;
  const rate = notification.pace?.rate_per_minute ?? null;
  const eta = view.eta;
  return (
    <div class="send-progress" data-testid="send-progress">
      <ProgressBar value={view.fraction} label={progressText(notification, now)} />
      <p>
        <span data-testid="progress-text">{progressText(notification, now)}</span> ({Math.floor(view.fraction * 100)} %).
        {view.growing ? ' The audience is still being resolved: targeted grows as each partition dispatches.' : ''}
      </p>
      <p data-testid="progress-eta">
        {rate === null ? 'Unpaced: as fast as Herald goes.' : `Pace: ${formatCount(rate)} per minute.`}{' '}
        {eta.kind === 'paused'
          ? 'Paused: nothing more is sent until it is resumed.'
          : eta.kind === 'at'
            ? `Expected to finish ${formatTime(new Date(eta.at).toISOString())} (${formatRelative(eta.at, now)}).`
            : ''}
      </p>
    </div>
  );
}
