import { useEffect, useRef } from 'preact/hooks';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';
import { formatClock, formatClockSeconds, formatCompact, formatDateTime } from '../lib/format.ts';

// Only what the console draws: bars (funnel, hours) and lines (progress, opens).
Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Filler, Legend, Tooltip);
Chart.defaults.font.family = 'system-ui, sans-serif';
Chart.defaults.color = '#333';

export const COLORS = { apns: '#1f5fa8', fcm: '#b3541e', webpush: '#00796b', hms: '#a3336b', delivered: '#1d7a3a', failed: '#b3261e', opened: '#6a3fa0', neutral: '#555' } as const;

/**
 * A Chart.js chart on a canvas. The canvas is an image to assistive
 * technology (`label`); every chart in the console has its numbers in a
 * table beside it too. Labels are drawn as text on the canvas, never as HTML.
 */
export function ChartCanvas({ config, label, height = 240 }: { config: ChartConfiguration; label: string; height?: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart | undefined>(undefined);
  useEffect(() => {
    if (canvas.current === null) return;
    if (chart.current === undefined) {
      chart.current = new Chart(canvas.current, { ...config, options: { responsive: true, maintainAspectRatio: false, animation: false, ...config.options } });
    } else {
      chart.current.data = config.data;
      chart.current.update();
    }
  }, [config]);
  useEffect(() => () => chart.current?.destroy(), []);
  return (
    <div class="chart" style={{ height: `${height}px` }}>
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}

/** A linear x axis of epoch milliseconds from `min` to `max`: clock times, with the date when it spans more than a day. */
export function timeAxis(min: number, max: number) {
  const span = max - min;
  const label = (value: number) => (span > 24 * 3_600_000 ? formatDateTime(value) : span < 600_000 ? formatClockSeconds(value) : formatClock(value));
  return { type: 'linear' as const, min, max, ticks: { callback: (value: number | string) => label(Number(value)), maxTicksLimit: 6 } };
}

export const countAxis = {
  beginAtZero: true,
  ticks: { callback: (value: number | string) => formatCompact(Number(value)), precision: 0 },
};
