import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apnsToken, waitFor } from '@herald/testing';
import { watchPage } from './browser.ts';
import { docsScreenshot, expectAccessible, expectNoRawErrors, signInWith, startConsoleStack, type ConsoleStack } from './e2e-stack.ts';

/**
 * Steering a paced campaign from the console (issue 49, item 2): the
 * composer's pace, max duration and lane; pause, resume, a new rate and
 * cancel while paused on the report, each as the API answers it; the list
 * filtered by `paused`; progress that is never full while sending.
 */
const DEVICES = [
  ...[1, 2, 3].map((n) => ({ token: apnsToken(`steer-ios-${n}`), platform: 'ios', topics: ['promo'] })),
  ...[1, 2, 3].map((n) => ({ token: `steer-android-${n}`, platform: 'android', topics: ['promo'] })),
];

interface Viewed {
  status: string;
  priority_lane: string | null;
  request: { rate_per_minute?: number; max_duration?: number };
  pace?: { rate_per_minute: number | null; paused: boolean };
}

let stack: ConsoleStack;
let page: Page;
let watched: ReturnType<typeof watchPage>;

beforeAll(async () => {
  stack = await startConsoleStack('console-steering', DEVICES, ['promo']);
  page = await (await stack.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.setDefaultTimeout(15_000);
  watched = watchPage(page);
  await signInWith(page, stack.url('/console/'), stack.project.api_key);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

const viewed = async (id: string) => (await stack.api<{ data: Viewed }>('GET', `/api/v1/notifications/${id}`)).body.data;
const badge = () => page.getByTestId('report-status');

describe('steering a paced campaign in the console', { timeout: 180_000 }, () => {
  let id: string;

  it('composes with pace, max duration and lane; a transactional lane with a pace is a field error', async () => {
    await page.goto(stack.url('/console/compose'));
    await page.getByLabel('Title', { exact: true }).fill('Winter campaign');
    await page.getByLabel('Body').fill('Paced to one a minute');
    await page.getByLabel('Topics').selectOption(['promo']);
    await page.getByLabel('Pace (pushes per minute)').fill('1');
    await page.getByLabel('Priority lane').selectOption('transactional');
    await page.getByTestId('errors-rate_per_minute').getByText('a transactional send is never paced').waitFor();
    await page.getByLabel('Max duration (minutes)').fill('1.5');
    await page.getByTestId('errors-max_duration').getByText('a whole number').waitFor();
    await expectAccessible(page, 'composer with pacing errors');
    await docsScreenshot(page, 'composer-pacing-errors');
    await page.getByLabel('Priority lane').selectOption('campaign');
    await page.getByLabel('Max duration (minutes)').fill('60');
    expect(await page.getByTestId('errors-rate_per_minute').count()).toBe(0);
    await expect.poll(() => page.getByTestId('audience-total').textContent().catch(() => null), { timeout: 15_000, message: 'the dry-run count' }).toBe('6');
    await page.getByRole('button', { name: 'Review and send' }).click();
    await page.getByRole('button', { name: 'Confirm and send' }).click();
    await page.waitForURL(/\/console\/notifications\/[0-9a-f-]{36}$/);
    id = page.url().split('/').at(-1)!;
    const sent = await viewed(id);
    expect(sent.request).toMatchObject({ rate_per_minute: 1, max_duration: 3600 });
    expect(sent.priority_lane).toBe('campaign');
  });

  it('pauses, resumes and pauses again, each as the API has it; the progress bar is never full meanwhile', async () => {
    await page.getByRole('heading', { name: 'Steer this send' }).waitFor();
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByTestId('steer-done').getByText('Paused').waitFor();
    await badge().getByText('paused').waitFor();
    expect((await viewed(id)).status).toBe('paused');
    await page.getByTestId('progress-eta').getByText('Paused: nothing more is sent until it is resumed.').waitFor();
    const bar = page.getByTestId('send-progress').getByRole('progressbar');
    expect(Number(await bar.getAttribute('aria-valuenow'))).toBeLessThan(100);
    expect(await page.getByTestId('progress-text').textContent()).toMatch(/^(\d+ of (at least )?\d+ devices have an outcome|The audience is being resolved: no device has an outcome yet)$/);

    await page.getByRole('button', { name: 'Resume' }).click();
    await badge().getByText(/^(sending|queued)$/).waitFor();
    expect((await viewed(id)).pace?.paused).toBe(false);
    await page.getByTestId('progress-eta').getByText(/^Pace: 1 per minute\./).waitFor();
    expect(Number(await bar.getAttribute('aria-valuenow'))).toBeLessThan(100);
    await page.getByRole('button', { name: 'Pause' }).click();
    await badge().getByText('paused').waitFor();
    await expectAccessible(page, 'report of a paused send');
    await docsScreenshot(page, 'report-paused');
  });

  it('lists it under the paused filter', async () => {
    await waitFor('the paused notification listed', async () => (await stack.api<{ data: Array<{ id: string }> }>('GET', '/api/v1/notifications?status=paused')).body.data.some((item) => item.id === id));
    await page.goto(stack.url('/console/notifications'));
    await page.getByLabel('Status').selectOption('paused');
    await page.waitForURL(/status=paused/);
    await page.getByRole('link', { name: 'Winter campaign' }).waitFor();
    await expectAccessible(page, 'notifications filtered by paused');
    await page.getByRole('link', { name: 'Winter campaign' }).click();
    await badge().getByText('paused').waitFor();
  });

  it('changes the rate after saying what it means, refuses a wrong one on the field', async () => {
    await page.getByLabel('Pace (pushes per minute)').fill('0');
    await page.getByRole('button', { name: 'Change the rate' }).click();
    await page.getByText('a whole number of pushes per minute, 1 to 100,000,000').waitFor();
    await page.getByLabel('Pace (pushes per minute)').fill('2');
    await page.getByRole('button', { name: 'Change the rate' }).click();
    await page.getByText(/^Send at 2 per minute from now\? The \d+ devices left then take about \d+ min\.$/).waitFor();
    await docsScreenshot(page, 'report-rate-confirm');
    await page.getByRole('button', { name: 'Yes, change the rate' }).click();
    await page.getByTestId('steer-done').getByText('The pace is now 2 per minute.').waitFor();
    await waitFor('the new pace in the API', async () => (await viewed(id)).pace?.rate_per_minute === 2);
    // Still paused: a new rate does not resume it.
    expect((await viewed(id)).status).toBe('paused');
  });

  it('cancels it while paused, after asking', async () => {
    await page.getByRole('button', { name: 'Cancel notification' }).click();
    await page.getByText('Cancel this notification (paused)? Devices not yet sent to will not get it.').waitFor();
    await page.getByRole('button', { name: 'Yes, cancel it' }).click();
    await badge().getByText('cancelled').waitFor();
    await waitFor('cancelled in the API', async () => (await viewed(id)).status === 'cancelled');
    // Finished: nothing left to steer.
    expect(await page.getByRole('heading', { name: 'Steer this send' }).count()).toBe(0);
    await expectNoRawErrors(page);
    await expectAccessible(page, 'report of a send cancelled while paused');
    expect(watched.errors).toEqual([]);
    expect(watched.cspViolations).toEqual([]);
  });
});

describe('every screen on a phone (390 px) and a desktop (1280 px)', { timeout: 240_000 }, () => {
  it('lists become cards, nothing scrolls sideways, badges and titles never break letter by letter, axe finds nothing', async () => {
    const sent = await stack.api<{ data: { id: string } }>('POST', '/api/v1/notifications', { notification: { title: 'Holiday opening hours for every store this week', body: 'Open late on Thursday', targets: ['promo'] } });
    const id = sent.body.data.id;
    await waitFor('the send listed as sent', async () => (await stack.api<{ data: Array<{ id: string; status: string }> }>('GET', '/api/v1/notifications?status=sent')).body.data.some((item) => item.id === id), 60_000);
    expect((await stack.api('POST', '/api/v1/webhooks', { url: 'https://hooks.example.com/herald', event_types: ['DeliveryReported'] })).status).toBe(201);
    const device = (await stack.api<{ data: Array<{ id: string }> }>('GET', '/api/v1/devices?limit=1')).body.data[0]!.id;
    const screens: Array<[string, string]> = [
      ['overview', '/console/'],
      ['notifications', '/console/notifications'],
      ['report', `/console/notifications/${id}`],
      ['compose', '/console/compose'],
      ['devices', '/console/devices'],
      ['device', `/console/devices/${device}`],
      ['topics', '/console/topics'],
      ['webhooks', '/console/webhooks'],
      ['explain', `/console/notifications/${id}/explain`],
    ];
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      for (const [name, path] of screens) {
        await page.goto(stack.url(path));
        await page.locator('main h1').waitFor();
        await expect.poll(() => page.getByText('Loading…').count(), { timeout: 15_000, message: `${name} loaded` }).toBe(0);
        const layout = await page.evaluate(() => {
          const doc = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number }; querySelectorAll(selector: string): ArrayLike<{ getBoundingClientRect(): { width: number; height: number }; textContent: string | null }> } }).document;
          const view = globalThis as unknown as { getComputedStyle(element: unknown): { display: string } };
          const rows = Array.from(doc.querySelectorAll('.cards tbody tr'));
          return {
            overflow: doc.documentElement.scrollWidth - doc.documentElement.clientWidth,
            tallBadges: Array.from(doc.querySelectorAll('.badge')).filter((badge) => badge.getBoundingClientRect().height > 30).map((badge) => badge.textContent),
            rowDisplay: rows.map((row) => view.getComputedStyle(row).display),
            narrowTitles: Array.from(doc.querySelectorAll('.cards tbody tr > :first-child')).filter((cell) => cell.getBoundingClientRect().width < 0.6 * doc.documentElement.clientWidth && view.getComputedStyle(cell).display !== 'table-cell').map((cell) => cell.textContent),
          };
        });
        expect(layout.overflow, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
        expect(layout.tallBadges, `${name} at ${width} px`).toEqual([]);
        expect(layout.narrowTitles, `${name} at ${width} px`).toEqual([]);
        expect(new Set(layout.rowDisplay), `${name} at ${width} px`).toEqual(new Set(layout.rowDisplay.length === 0 ? [] : [width === 390 ? 'block' : 'table-row']));
        await expectAccessible(page, `${name} at ${width} px`);
        await docsScreenshot(page, name);
      }
    }
    expect(watched.errors).toEqual([]);
  });
});
