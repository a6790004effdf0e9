import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createEvent, deviceIdFor } from '@herald/events';
import { createTopics, startApiHarness, waitFor, waitForReceiptsCaughtUp, type ApiHarness, apnsToken, apnsTokenPrefix } from '@herald/testing';
import { buildConsole, DIST_DIR } from './build/build.ts';
import { axeViolations, launchChromium, screenshot, watchPage } from './browser.ts';

/**
 * The console in a real browser (Debian's Chromium driven by Playwright)
 * against the real stack: API (serving the console built here), projector,
 * delivery with fake APNs and FCM, Kafka and the store of the test setup.
 */
type Counts = Record<'targeted' | 'sent' | 'delivered' | 'failed' | 'invalid' | 'cancelled' | 'opened', number>;
interface NotificationBody {
  id: string;
  status: string;
  counts: Counts;
  counts_by_provider: { apns: Counts; fcm: Counts };
}
interface Receipt {
  device_id: string;
  provider: string;
  outcome: string;
  reason: string | null;
  attempts: number | null;
  delivered_at: string | null;
  opened_at: string | null;
  reported_at: string;
}

const HOSTILE = '<img src=x onerror="window.__xss=1">';
const ADMIN_TOKEN = 'console-e2e-admin-token-0123456789abcdef';
const DEVICES = [
  { token: apnsToken('ios-ok-1'), platform: 'ios', topics: ['news'] },
  { token: apnsToken('ios-ok-2'), platform: 'ios', topics: ['news'] },
  { token: apnsToken('ios-bad-1'), platform: 'ios', topics: ['news'] },
  { token: 'android-ok-1', platform: 'android', topics: ['news'], metadata: { plan: 'pro' } },
  { token: 'android-spare-1', platform: 'android', topics: ['sport'] },
  { token: apnsToken('evil-1'), platform: 'ios', topics: [HOSTILE], metadata: { note: HOSTILE, [`<b>key</b>`]: '<script>window.__xss=2</script>' } },
] as const;

let harness: ApiHarness;
let project: { id: string; api_key: string };
let browser: Browser;
let page: Page;
let watched: ReturnType<typeof watchPage>;
let sentId: string;

const api = async <T>(method: string, path: string, body?: unknown) => {
  const response = await harness.request(method, path, { key: project.api_key, body });
  return response.body as T;
};
const allReceipts = async (id: string): Promise<Receipt[]> => {
  const rows: Receipt[] = [];
  for (let page = 1; ; page += 1) {
    const body = await api<{ data: Receipt[]; pagination: { last: number } }>('GET', `/api/v1/notifications/${id}/receipts?limit=100&page=${page}`);
    rows.push(...body.data);
    if (page >= body.pagination.last) return rows;
  }
};
const url = (path: string) => `${harness.baseUrl}${path}`;
/** Cell texts of a table's body rows. */
const tableRows = async (selector: string): Promise<string[][]> => {
  const rows = page.locator(`${selector} tbody tr`);
  const result: string[][] = [];
  for (let n = 0, count = await rows.count(); n < count; n += 1) result.push((await rows.nth(n).locator('td, th').allTextContents()).map((text) => text.trim()));
  return result;
};
const number = (text: string) => Number(text.replace(/[^\d]/g, ''));
const expectAccessible = async (screen: string) => expect(await axeViolations(page), `axe on ${screen}`).toEqual([]);

beforeAll(async () => {
  await buildConsole({ quiet: true });
  harness = await startApiHarness('console', { delivery: true, webhooks: true, apiEnv: { CONSOLE_DIR: DIST_DIR, HERALD_ADMIN_TOKEN: ADMIN_TOKEN }, apnsRules: [{ prefix: apnsTokenPrefix('ios-bad-'), status: 400, reason: 'BadDeviceToken' }] });
  project = await harness.createProject('console');
  await harness.fakes!.configure(project.id);
  await createTopics(harness, project.api_key, ['news', 'sport', HOSTILE]);
  for (const device of DEVICES) {
    const response = await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, ...device } });
    expect(response.status, device.token).toBe(201);
  }
  await waitFor('devices projected', async () => (await api<{ pagination: { count: number } }>('GET', '/api/v1/devices?limit=1')).pagination.count === DEVICES.length);
  await waitFor('topics projected', async () => (await api<{ data: Array<{ name: string; subscribers: number }> }>('GET', '/api/v1/topics')).data.find((topic) => topic.name === 'news')?.subscribers === 4);
  browser = await launchChromium();
  // A context of its own (axe-core opens a page beside the one it checks).
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.setDefaultTimeout(15_000);
  watched = watchPage(page);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await harness?.stop();
});

describe('the console in a browser', { timeout: 120_000 }, () => {
  it('signs in with the API key, keeps it for the tab only, and signs out', async () => {
    await page.goto(url('/console/'));
    await page.getByLabel('Project API key').fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('This API key is not valid.').waitFor();
    await expectAccessible('sign-in');
    await screenshot(page, 'sign-in');

    await page.getByLabel('Project API key').fill(project.api_key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(page.url()).not.toContain(project.api_key);
    expect(await page.evaluate(() => ({ session: sessionStorage.length, local: localStorage.length, cookies: (globalThis as unknown as { document: { cookie: string } }).document.cookie }))).toEqual({ session: 1, local: 0, cookies: '' });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Project API key').waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.getByLabel('Project API key').fill(project.api_key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('devices-ios-active').waitFor();
    expect(await page.getByTestId('devices-ios-active').textContent()).toBe('4');
    expect(await page.getByTestId('devices-android-active').textContent()).toBe('2');
    await expectAccessible('overview');
    await screenshot(page, 'overview');
  });

  it('composes with a field error, fixes it, reads the dry-run count, sends, and watches it reach sent', async () => {
    await page.goto(url('/console/compose'));
    await page.getByLabel('Title', { exact: true }).fill('Spring sale');
    await page.getByLabel('Body').fill('Everything 20 % off today');
    await page.getByLabel('Topics').selectOption(['news']);
    await expect.poll(() => page.getByTestId('audience-total').textContent().catch(() => null), { timeout: 15_000, message: 'the dry-run count' }).toBe('4');
    expect(await page.getByTestId('audience').textContent()).toContain('iOS 3, Android 1');
    // The same count as the API's dry-run, and nothing sent by counting.
    expect((await api<{ data: { total: number } }>('POST', '/api/v1/notifications/dry-run', { notification: { title: 't', body: 'b', targets: ['news'] } })).data.total).toBe(4);
    expect((await api<{ pagination: { count: number } }>('GET', '/api/v1/notifications')).pagination.count).toBe(0);

    await page.getByLabel('Image (https URL)').fill('http://example.invalid/sale.png');
    await page.getByLabel('Badge').fill('3');
    await page.getByLabel('Data', { exact: true }).fill('campaign=spring');
    expect(await page.getByTestId('preview-apns').textContent()).toContain('"badge": 3');
    expect(await page.getByTestId('preview-fcm').textContent()).toContain('"campaign": "spring"');
    await page.getByRole('button', { name: 'Review and send' }).click();
    await page.getByRole('button', { name: 'Confirm and send' }).click();
    const imageErrors = page.getByTestId('errors-image');
    await imageErrors.waitFor();
    expect(await imageErrors.textContent()).toContain('notification.image');
    await expectAccessible('composer with an error');
    await screenshot(page, 'composer-error');

    await page.getByLabel('Image (https URL)').fill('https://example.invalid/sale.png');
    // Two quick clicks on the confirm: one notification (the draft's idempotency key).
    await page.getByRole('button', { name: 'Review and send' }).click();
    await page.getByRole('button', { name: 'Confirm and send' }).dblclick();
    await page.waitForURL(/\/console\/notifications\/[0-9a-f-]{36}$/);
    sentId = page.url().split('/').at(-1)!;
    await page.getByTestId('report-status').getByText('sent').waitFor({ timeout: 60_000 });
    const { data } = await api<{ data: NotificationBody }>('GET', `/api/v1/notifications/${sentId}`);
    expect(data.status).toBe('sent');
    expect((await api<{ pagination: { count: number } }>('GET', '/api/v1/notifications')).pagination.count).toBe(1);
    await page.getByTestId('funnel-all-sent').getByText(String(data.counts.sent)).waitFor();
    for (const [row, counts] of [['all', data.counts], ['apns', data.counts_by_provider.apns], ['fcm', data.counts_by_provider.fcm]] as const) {
      for (const step of ['targeted', 'sent', 'delivered', 'opened', 'failed', 'invalid', 'cancelled'] as const) {
        expect(number((await page.getByTestId(`funnel-${row}-${step}`).textContent()) ?? ''), `${row} ${step}`).toBe(counts[step]);
      }
    }
    expect(data.counts).toMatchObject({ targeted: 4, delivered: 3, invalid: 1 });
    await page.getByText('BadDeviceToken').first().waitFor();
    expect(await page.getByTestId('request-json').textContent()).toContain('"image": "https://example.invalid/sale.png"');
    await expectAccessible('report');
    await screenshot(page, 'report');
  });

  it('shows receipts that match the receipts API, filters them, and exports all of them as CSV', async () => {
    // The receipts are the ledger, a projection of its own that may trail the status the last test waited for:
    // the page, the API and the CSV below are compared once it holds every report.
    await waitForReceiptsCaughtUp(harness.env.kafka);
    await page.goto(url(`/console/notifications/${sentId}`));
    await page.getByTestId('receipts').waitFor();
    const expected = await allReceipts(sentId);
    // news: ios-ok-1, ios-ok-2, ios-bad-1 and android-ok-1.
    expect(expected).toHaveLength(4);
    const rows = await tableRows('[data-testid=receipts]');
    expect(rows.map((row) => [row[0], row[2], row[3]])).toEqual(expected.map((receipt) => [receipt.device_id, receipt.outcome, receipt.reason ?? '–']));

    await page.getByLabel('Outcome').selectOption('invalid');
    await page.waitForURL(/outcome=invalid/);
    await expect.poll(async () => (await tableRows('[data-testid=receipts]')).map((row) => row[0]), { message: 'the filtered receipts' }).toEqual([deviceIdFor(project.id, apnsToken('ios-bad-1'))]);
    await screenshot(page, 'receipts-filtered');
    // The filter is in the URL: a reload shows the same rows.
    await page.reload();
    await expect.poll(async () => (await tableRows('[data-testid=receipts]')).length, { message: 'the filtered receipts after a reload' }).toBe(1);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export all receipts (CSV)' }).click()]);
    const csv = await readFile((await download.path()), 'utf8');
    const [header, ...lines] = csv.trimEnd().split('\r\n');
    expect(header).toBe('device_id,provider,outcome,reason,attempts,delivered_at,opened_at,reported_at');
    expect(lines).toEqual(
      expected.map((receipt) => [receipt.device_id, receipt.provider, receipt.outcome, receipt.reason ?? '', receipt.attempts ?? '', receipt.delivered_at ?? '', receipt.opened_at ?? '', receipt.reported_at].join(',')),
    );
  });

  it('explains why a device was not reached, and shows a device timeline from the log', async () => {
    const spare = deviceIdFor(project.id, 'android-spare-1');
    await page.goto(url(`/console/notifications/${sentId}`));
    await page.getByRole('link', { name: 'Why was a device not reached?' }).click();
    await page.getByLabel('Device id').fill(spare);
    await page.getByRole('button', { name: 'Explain' }).click();
    await page.getByTestId('explain-reason').getByText('not_matched').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('explain-clauses').textContent()).toContain('✗ topic: not subscribed to "news" (subscribed to "sport")');
    await expectAccessible('explain a device');
    await screenshot(page, 'explain');

    await page.goto(url(`/console/devices/${deviceIdFor(project.id, apnsToken('ios-ok-1'))}`));
    await page.getByRole('button', { name: 'Show the timeline from the log' }).click();
    await page.getByTestId('timeline').waitFor({ timeout: 30_000 });
    const rows = await tableRows('[data-testid="timeline"]');
    expect(rows.map((row) => row[1])).toEqual(['registered', 'receipt']);
    expect(rows[1]![2]).toContain('delivered');
    expect(rows[1]![3]).toBe(sentId);
  });

  it('cancels a scheduled send after confirmation', async () => {
    const sendAt = new Date(Date.now() + 24 * 3600_000).toISOString();
    const created = await api<{ data: { id: string } }>('POST', '/api/v1/notifications', { notification: { title: 'Tomorrow', body: 'later', targets: ['sport'], send_at: sendAt } });
    const id = created.data.id;
    // Its GET is answered at once by the API that accepted it; the listing the console shows follows the read model.
    expect((await api<{ data: { status: string } }>('GET', `/api/v1/notifications/${id}`)).data.status).toBe('scheduled');
    await waitFor('the scheduled notification projected', async () =>
      (await api<{ data: Array<{ id: string }> }>('GET', '/api/v1/notifications?status=scheduled&limit=100')).data.some((item) => item.id === id),
    );
    await page.goto(url('/console/notifications?status=scheduled'));
    await page.getByRole('link', { name: 'Tomorrow' }).click();
    await page.getByTestId('report-status').getByText('scheduled').waitFor();
    await page.getByRole('button', { name: 'Cancel notification' }).click();
    await screenshot(page, 'cancel-confirm');
    await page.getByRole('button', { name: 'Yes, cancel it' }).click();
    await page.getByTestId('report-status').getByText('cancelled').waitFor();
    await waitFor('the notification cancelled in the API', async () => (await api<{ data: { status: string } }>('GET', `/api/v1/notifications/${id}`)).data.status === 'cancelled');
    await expectAccessible('report of a cancelled notification');
  });

  it('finds a device by token and deletes it', async () => {
    await page.goto(url('/console/devices'));
    await page.getByLabel('Find by id, token or external id').fill('android-ok-1');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.waitForURL(/q=android-ok-1/);
    const id = deviceIdFor(project.id, 'android-ok-1');
    await page.getByRole('link', { name: id }).click();
    await page.getByRole('heading', { name: `Device ${id}` }).waitFor();
    await page.getByTestId('metadata').getByText('pro').waitFor();
    // Its receipts link to the notification they belong to (named by its title, the id on demand).
    await page.locator(`a[href$="/console/notifications/${sentId}"]`).first().waitFor();
    await expectAccessible('device page');
    await page.getByRole('button', { name: 'Delete device' }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await page.getByRole('status').getByText('Deleted').waitFor();
    await waitFor('the device inactive in the API', async () => (await api<{ data: { status: string } }>('GET', `/api/v1/devices/${id}`)).data.status === 'inactive');
    await page.reload();
    await page.getByTestId('device-status').getByText('inactive').waitFor();
    await screenshot(page, 'device-deleted');
  });

  it('shows hostile metadata, topics and titles as text and runs none of it', async () => {
    const hostile = await api<{ data: { id: string } }>('POST', '/api/v1/notifications', { notification: { title: HOSTILE, body: '<script>window.__xss=3</script>', targets: [apnsToken('evil-1')] } });
    const evil = deviceIdFor(project.id, apnsToken('evil-1'));
    await page.goto(url(`/console/devices/${evil}`));
    await page.getByTestId('metadata').getByText(HOSTILE).waitFor();
    await page.getByTestId('metadata').getByText('<b>key</b>').waitFor();
    await page.goto(url('/console/topics'));
    await page.getByTestId('topics').getByRole('cell', { name: HOSTILE, exact: true }).waitFor();
    // The list is a read model: the notification shows once the projector has it.
    await waitFor('the hostile notification listed', async () => (await api<{ data: Array<{ id: string }> }>('GET', '/api/v1/notifications')).data.some((item) => item.id === hostile.data.id));
    await page.goto(url('/console/notifications'));
    await page.getByRole('link', { name: HOSTILE }).click();
    await page.getByRole('heading', { name: HOSTILE }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(await page.locator('main img, main script, main b').count()).toBe(0);
    await screenshot(page, 'hostile-data');
  });

  it("lets the operator sign in with the admin token (not a project key) and redrive a dead letter after a dry run", async () => {
    // A registration the devices projector fails for good: a hand-edited document without a position (see dlq.e2e.test.ts).
    const devices = harness.env.driverDb.collection<{ _id: string; token?: string }>('devices_v1');
    const deviceId = deviceIdFor(project.id, 'operator-poison');
    await devices.insertOne({ _id: deviceId, token: 'edited by hand' });
    await harness.env.producer.publish([createEvent('DeviceRegistered', { device_id: deviceId, token: 'operator-poison', platform: 'android' }, { project_id: project.id })]);
    const operator = (method: string, path: string, body?: unknown) => harness.request(method, path, { key: ADMIN_TOKEN, ...(body === undefined ? {} : { body }) });
    await waitFor('the registration dead-lettered', async () => ((await operator('GET', '/admin/v1/dead-letters')).body?.data as unknown[] | undefined)?.length === 1, 60_000);

    await page.goto(url('/console/operator'));
    await page.getByLabel('Admin token').fill(project.api_key);
    await page.getByRole('button', { name: 'Sign in as operator' }).click();
    await page.getByText('This admin token is not valid.').waitFor();
    await expectAccessible('operator sign-in');
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in as operator' }).click();
    await page.getByRole('heading', { name: 'Dead letters' }).waitFor();
    await page.getByTestId('dead-letters').waitFor();
    const rows = await tableRows('[data-testid=dead-letters]');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.slice(0, 5)).toEqual(['herald.device-events.dlq.herald.projector.devices.v1', 'herald.projector.devices.v1', 'handler-error', expect.stringMatching(/^TypeError: Cannot read properties of undefined/), '1']);
    // The admin token sits beside the project key in this tab's session, nowhere else.
    expect(await page.evaluate(() => ({ admin: sessionStorage.getItem('herald.adminToken'), local: localStorage.length }))).toEqual({ admin: ADMIN_TOKEN, local: 0 });

    await page.getByRole('button', { name: /^Redrive/ }).click();
    await page.getByText('Redrive 1 dead letter to herald.projector.devices.v1?').waitFor();
    await expectAccessible('operator redrive confirmation');
    await screenshot(page, 'operator-redrive');
    // The dry run wrote nothing; the fix, then the redrive.
    expect((await operator('POST', '/admin/v1/dead-letters/redrive', { dry_run: true })).body?.data).toMatchObject({ redriven: [expect.anything()], already_redriven: [] });
    await devices.deleteOne({ _id: deviceId });
    await page.getByRole('button', { name: 'Yes, redrive 1' }).click();
    await page.getByTestId('redrive-done').getByText('Redrove 1 dead letter.').waitFor();
    expect((await operator('POST', '/admin/v1/dead-letters/redrive', { dry_run: true })).body?.data).toMatchObject({ redriven: [], already_redriven: [expect.anything()] });
    await waitFor('the redriven registration projected', async () => (await devices.findOne({ _id: deviceId }))?.token === 'operator-poison', 30_000);

    await page.getByRole('button', { name: 'Operator sign out' }).click();
    await page.getByLabel('Admin token').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('herald.adminToken'))).toBeNull();
  });

  it('lists webhooks with their lag and last failure', async () => {
    // Outside local mode delivery refuses a host resolving to loopback (an IP address is refused at creation): the failure shows, and no socket is opened to it.
    const created = await api<{ data: { id: string } }>('POST', '/api/v1/webhooks', { url: 'https://localhost:9/hook', event_types: ['NotificationRequested'] });
    await api('POST', '/api/v1/notifications', { notification: { title: 'for the webhook', body: 'x', targets: [apnsToken('ios-ok-1')] } });
    const failure = await waitFor('the webhook failed', async () => (await api<{ data: { status: { last_failure: { error: string } | null } } }>('GET', `/api/v1/webhooks/${created.data.id}`)).data.status.last_failure ?? undefined, 30_000);
    expect(failure.error).toBe('localhost resolves to an address webhooks may not call (only public unicast addresses are): refused');
    await page.goto(url('/console/webhooks'));
    await page.getByTestId('webhooks').getByRole('cell', { name: 'https://localhost:9/hook', exact: true }).waitFor();
    expect(await page.getByTestId('webhook-last-failure').first().textContent()).toContain('may not call (only public unicast addresses are): refused');
    expect(number((await page.getByTestId('webhook-lag').first().textContent()) ?? '')).toBeGreaterThanOrEqual(0);
    await screenshot(page, 'webhooks');
  });

  it('passes axe on every screen, at desktop and phone width, with nothing blocked by its Content-Security-Policy', async () => {
    const screens = ['/console/', '/console/notifications', `/console/notifications/${sentId}`, `/console/notifications/${sentId}/explain`, '/console/compose', '/console/devices', `/console/devices/${deviceIdFor(project.id, apnsToken('ios-ok-1'))}`, '/console/topics', '/console/segments', '/console/webhooks', '/console/settings', '/console/nowhere'];
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const screen of screens) {
        await page.goto(url(screen));
        await page.locator('main h1').waitFor();
        await expect.poll(() => page.getByText('Loading…').count(), { message: `${screen} loaded` }).toBe(0);
        await expectAccessible(`${screen} at ${width} px`);
      }
    }
    await page.goto(url(`/console/notifications/${sentId}`));
    await page.getByTestId('funnel').waitFor();
    await screenshot(page, 'report-phone');
    const response = await page.goto(url('/console/topics'));
    expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(response!.headers()['x-content-type-options']).toBe('nosniff');
    expect(watched.cspViolations).toEqual([]);
    expect(watched.errors).toEqual([]);
  });
});
