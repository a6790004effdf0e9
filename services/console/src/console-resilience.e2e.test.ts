import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { apnsToken, waitFor } from '@herald/testing';
import { watchPage } from './browser.ts';
import { docsScreenshot, expectAccessible, expectNoRawErrors, signInWith, startConsoleStack, type ConsoleStack } from './e2e-stack.ts';

/**
 * Never hang, always say (issue 49, item 3), and fast to load (item 8): the
 * real stack, with the browser's network cut where a person's would be (a
 * refused connection, an answer lost after the API took the send, an API
 * that does not answer, the browser offline), a key revoked mid-session,
 * and what the sign-in page downloads.
 */
const DEVICES = [
  { token: apnsToken('never-hang-1'), platform: 'ios', topics: ['alerts'] },
  { token: 'never-hang-android-1', platform: 'android', topics: ['alerts'] },
];

let stack: ConsoleStack;
let context: BrowserContext;
let page: Page;
let watched: ReturnType<typeof watchPage>;

beforeAll(async () => {
  stack = await startConsoleStack('console-resilience', DEVICES, ['alerts']);
  context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  watched = watchPage(page);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

/** Routes one API path (and method) of this page through `handler`; other requests go on. */
const onApi = (path: string, method: string, handler: (route: Route) => Promise<void>) =>
  page.route(
    (url) => url.pathname === path,
    async (route) => (route.request().method() === method ? handler(route) : route.continue()),
  );

describe('loading fast', { timeout: 120_000 }, () => {
  it("sends the sign-in page's JavaScript brotli-compressed, under 120 KB, cached for good; screens load as visited", async () => {
    const scripts: Array<{ url: string; encoding: string | undefined; cache: string | undefined; bytes: number }> = [];
    const seen: Array<Promise<void>> = [];
    page.on('response', (response) => {
      if (!response.url().endsWith('.js')) return;
      seen.push(
        (async () => {
          const headers = await response.allHeaders();
          scripts.push({ url: response.url(), encoding: headers['content-encoding'], cache: headers['cache-control'], bytes: (await response.request().sizes()).responseBodySize });
        })(),
      );
    });
    const index = await page.goto(stack.url('/console/'));
    await page.getByLabel('Project API key').waitFor();
    await Promise.all(seen);
    expect(index!.headers()['cache-control']).toBe('no-cache');
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      expect(script.encoding, script.url).toBe('br');
      expect(script.cache, script.url).toMatch(/max-age=31536000.*immutable|immutable.*max-age=31536000/);
    }
    const total = scripts.reduce((sum, script) => sum + script.bytes, 0);
    expect(total).toBeGreaterThan(1000);
    expect(total).toBeLessThanOrEqual(120 * 1024);
    // Code split by route: the composer's code is fetched when it is first visited, not before.
    const before = scripts.length;
    await signInWith(page, stack.url('/console/compose'), stack.project.api_key);
    await page.getByRole('heading', { name: 'Compose a notification' }).waitFor();
    await Promise.all(seen);
    expect(scripts.slice(before).some((script) => /\/composer-[\w-]+\.js$/.test(script.url))).toBe(true);
    expect(scripts.slice(0, before).some((script) => /\/composer-[\w-]+\.js$/.test(script.url))).toBe(false);
  });
});

describe('never hanging, always saying', { timeout: 120_000 }, () => {
  it('says the audience could not be counted when the API is unreachable mid-compose, and counts once it is back', async () => {
    await page.goto(stack.url('/console/compose'));
    await page.getByLabel('Title', { exact: true }).fill('Storm warning');
    await page.getByLabel('Body').fill('Stay inside');
    await onApi('/api/v1/notifications/dry-run', 'POST', (route) => route.abort('connectionrefused'));
    await page.getByLabel('Topics').selectOption(['alerts']);
    await page.getByTestId('audience-failed').getByText('Could not count the audience. Could not reach the Herald API').waitFor();
    expect(await page.getByRole('button', { name: 'Review and send' }).isEnabled()).toBe(true);
    await expectNoRawErrors(page);
    await expectAccessible(page, 'composer, API unreachable');
    await docsScreenshot(page, 'composer-api-unreachable');
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.getByRole('button', { name: 'Count again' }).click();
    await page.getByTestId('audience-total').getByText('2').waitFor();
  });

  it('after Send without an answer, says it could not confirm, and Check again finds the one notification by its idempotency key', async () => {
    let accepted: string | undefined;
    // The API takes the send; its answer is lost on the way back.
    await onApi('/api/v1/notifications', 'POST', async (route) => {
      const response = await route.fetch();
      accepted = ((await response.json()) as { data: { id: string } }).data.id;
      await route.abort('connectionreset');
    });
    await page.getByRole('button', { name: 'Review and send' }).click();
    await page.getByRole('button', { name: 'Confirm and send' }).click();
    const unconfirmed = page.getByTestId('send-unconfirmed');
    await unconfirmed.getByRole('heading', { name: 'Could not confirm the send' }).waitFor();
    expect(accepted).toMatch(/^[0-9a-f-]{36}$/);
    expect(await page.getByTestId('idempotency-key').textContent()).toMatch(/^[0-9a-f-]{32,36}$/);
    await expectNoRawErrors(page);
    await expectAccessible(page, 'composer, send not confirmed');
    await docsScreenshot(page, 'composer-send-unconfirmed');
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.getByRole('button', { name: 'Check again' }).click();
    await page.waitForURL(/\/console\/notifications\/[0-9a-f-]{36}$/);
    // The same notification: the key made the second request an answer, not a second send.
    expect(page.url().split('/').at(-1)).toBe(accepted);
    await waitFor('the notification listed', async () => (await stack.api<{ data: Array<{ id: string }> }>('GET', '/api/v1/notifications')).body.data.some((item) => item.id === accepted));
    const listed = (await stack.api<{ data: Array<{ title: string }> }>('GET', '/api/v1/notifications?limit=100')).body.data.filter((item) => item.title === 'Storm warning');
    expect(listed).toHaveLength(1);
  });

  it('gives up on an API that does not answer, says so, and loads on Try again', async () => {
    const held: Route[] = [];
    await onApi('/api/v1/topics', 'GET', async (route) => {
      held.push(route);
    });
    await page.goto(stack.url('/console/topics'));
    await page.getByText('Loading…').waitFor();
    await page.getByText('The Herald API did not answer within 15 s.').waitFor({ timeout: 40_000 });
    await expectNoRawErrors(page);
    await docsScreenshot(page, 'topics-timeout');
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('topics').getByRole('cell', { name: 'alerts', exact: true }).waitFor();
    expect(held.length).toBeGreaterThan(0);
  });

  it('shows when the browser is offline, says why a screen did not load, and loads it once back', async () => {
    // Both screens' code loaded first (a screen never visited would say its code could not be fetched).
    await page.goto(stack.url('/console/'));
    await page.getByTestId('devices-ios-active').waitFor();
    await page.getByRole('link', { name: 'Notifications', exact: true }).click();
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    await context.setOffline(true);
    await page.getByTestId('offline').getByText('You are offline').waitFor();
    await page.getByRole('link', { name: 'Overview', exact: true }).click();
    await page.getByText('You are offline: this browser has no network connection.').first().waitFor();
    await expectNoRawErrors(page);
    await expectAccessible(page, 'overview offline');
    await docsScreenshot(page, 'overview-offline');
    await context.setOffline(false);
    await expect.poll(() => page.getByTestId('offline').textContent(), { timeout: 15_000 }).toBe('');
    for (let retries = await page.getByRole('button', { name: 'Try again' }).count(); retries > 0; retries -= 1) await page.getByRole('button', { name: 'Try again' }).first().click();
    await page.getByTestId('devices-ios-active').getByText('1').waitFor();
  });

  it('signs out when the key is revoked, and says why on the sign-in page', async () => {
    const issued = JSON.parse(await stack.harness.herald('keys', 'issue', stack.project.id, '--json')) as { key_id: string; api_key: string };
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signInWith(page, stack.url('/console/'), issued.api_key);
    await stack.harness.herald('keys', 'revoke', issued.key_id);
    // A revoked key stops working within API_KEY_CACHE_MS (2 s): each visit asks the API again.
    await waitFor('the revoked key refused', async () => (await stack.harness.request('GET', '/api/v1/topics', { key: issued.api_key })).status === 401);
    await page.getByRole('link', { name: 'Devices', exact: true }).click();
    await page.getByTestId('signed-out-reason').getByText('You were signed out: the API no longer accepts this API key (it was revoked or has expired).').waitFor();
    await page.getByLabel('Project API key').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('herald.apiKey'))).toBeNull();
    await expectAccessible(page, 'sign-in after a revoked key');
    await docsScreenshot(page, 'sign-in-key-revoked');
    // Signing in again clears the reason.
    await signInWith(page, stack.url('/console/'), stack.project.api_key);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(1);
    expect(watched.errors).toEqual([]);
  });
});
