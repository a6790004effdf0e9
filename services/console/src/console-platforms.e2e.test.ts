import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { deviceIdFor } from '@herald/events';
import { apnsToken, waitFor } from '@herald/testing';
import { watchPage } from './browser.ts';
import { expectAccessible, signInWith, startConsoleStack, type ConsoleStack } from './e2e-stack.ts';

/**
 * Every platform in the console (issue 46, item 8): the devices screen
 * filtered by platform (Huawei here), an iOS device's Live Activity tokens
 * on its page, and a report whose funnel has a Push Kit row once the
 * notification reached a Huawei device. axe-clean.
 */
const IOS = apnsToken('plat-ios-1');
const HUAWEI = `plat-huawei-${randomBytes(48).toString('base64url')}`;
const DEVICES = [
  { token: IOS, platform: 'ios' },
  { token: 'plat-android-1', platform: 'android' },
  { token: HUAWEI, platform: 'huawei' },
];

let stack: ConsoleStack;
let page: Page;
let watched: ReturnType<typeof watchPage>;

beforeAll(async () => {
  stack = await startConsoleStack('console-platforms', DEVICES, []);
  page = await (await stack.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.setDefaultTimeout(15_000);
  watched = watchPage(page);
  await signInWith(page, stack.url('/console/'), stack.project.api_key);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

describe('platforms in the console', { timeout: 90_000 }, () => {
  it('lists the devices of one platform', async () => {
    await page.goto(stack.url('/console/devices'));
    await page.getByTestId('devices').getByRole('row').nth(3).waitFor();
    await page.getByLabel('Platform').selectOption('huawei');
    await page.waitForURL(/platform=huawei/);
    const huaweiId = deviceIdFor(stack.project.id, HUAWEI);
    await page.getByRole('link', { name: huaweiId }).waitFor();
    await expect.poll(() => page.getByTestId('devices').getByRole('row').count(), { message: 'the header and the Huawei device only' }).toBe(2);
    expect(await page.getByTestId('devices').getByRole('cell', { name: 'Huawei', exact: true }).count()).toBe(1);
    await expectAccessible(page, 'devices by platform');
  });

  it("shows an iOS device's Live Activity tokens on its page", async () => {
    const id = deviceIdFor(stack.project.id, IOS);
    const attached = await stack.api('POST', `/api/v1/devices/${id}/live-activity-tokens`, { kind: 'push_to_start', token: apnsToken('plat-ios-pts'), attributes_type: 'ScoreAttributes' });
    expect(attached.status).toBe(201);
    await page.goto(stack.url(`/console/devices/${id}`));
    await page.getByRole('heading', { name: 'Live Activities' }).waitFor();
    await page.getByTestId('live-activity-tokens').getByRole('cell', { name: 'ScoreAttributes' }).waitFor();
    await page.getByTestId('live-activity-tokens').getByRole('cell', { name: 'Push to start' }).waitFor();
    await expectAccessible(page, 'device page with Live Activity tokens');
  });

  it('has a Push Kit row in the funnel of a notification that reached a Huawei device', async () => {
    const sent = await stack.api<{ data: { id: string } }>('POST', '/api/v1/notifications', { notification: { title: 'Every platform', body: 'Hello', targets: [{ token: IOS }, { token: 'plat-android-1' }, { token: HUAWEI }] } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const id = sent.body.data.id;
    type Counts = Record<'targeted' | 'delivered', number>;
    const done = await waitFor('the notification sent', async () => {
      const { body } = await stack.api<{ data: { status: string; counts: Counts; counts_by_provider: { hms?: Counts } } }>('GET', `/api/v1/notifications/${id}`);
      return body.data.status === 'sent' ? body.data : undefined;
    }, 60_000);
    expect(done.counts_by_provider.hms, JSON.stringify(done)).toMatchObject({ targeted: 1, delivered: 1 });
    await page.goto(stack.url(`/console/notifications/${id}`));
    await page.getByTestId('funnel').waitFor();
    await page.getByTestId('funnel').getByRole('rowheader', { name: 'Push Kit (Huawei)' }).waitFor();
    expect(await page.getByTestId('funnel-hms-delivered').textContent()).toBe(String(done.counts_by_provider.hms!.delivered));
    expect(await page.getByTestId('funnel').getByRole('rowheader', { name: 'Web Push (browsers)' }).count()).toBe(0);
    await expectAccessible(page, 'report with a Push Kit row');
    expect(watched).toEqual({ cspViolations: [], errors: [] });
  });
});
