import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { apnsToken, waitFor } from '@herald/testing';
import { watchPage } from './browser.ts';
import { docsScreenshot, expectAccessible, signInWith, startConsoleStack, type ConsoleStack } from './e2e-stack.ts';

/**
 * Review before sending, drafts, names and time zones (issue 49, items 1
 * and 5) in Chromium against the real stack: Send opens a review (audience
 * by platform, schedule, pacing, lane, lock screens) and only the confirm
 * sends, delivered through the fake APNs; a draft saved on the server is
 * there after a reload; a sent notification is duplicated into a draft;
 * explain takes a token; every time says its zone, switchable to the project's.
 */
const IOS = [apnsToken('review-ios-1'), apnsToken('review-ios-2')];
const DEVICES = [...IOS.map((token) => ({ token, platform: 'ios', topics: ['news'] })), { token: 'review-android-1', platform: 'android', topics: ['news'], metadata: { country: 'FR' } }];

let stack: ConsoleStack;
let context: BrowserContext;
let page: Page;
let watched: ReturnType<typeof watchPage>;
let sentId: string;
let testId: string;

beforeAll(async () => {
  stack = await startConsoleStack('console-review', DEVICES, ['news']);
  // A zone that is not the machine's (nor UTC): the console must say which one it shows.
  context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'Asia/Tokyo' });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  watched = watchPage(page);
  await signInWith(page, stack.url('/console/'), stack.project.api_key);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

describe('send goes through a review', { timeout: 120_000 }, () => {
  it('shows the audience by platform, schedule, pacing and lane, and sends only on confirm', async () => {
    await page.goto(stack.url('/console/compose'));
    await page.getByLabel('Title', { exact: true }).fill('Review me');
    await page.getByLabel('Body').fill('Checked before it went');
    await page.locator('#f-topics').selectOption('news');
    await page.getByTestId('audience-total').getByText('3').waitFor();
    await page.getByRole('button', { name: 'Review and send' }).click();
    const review = page.getByTestId('review');
    await review.getByTestId('review-audience').getByText('3 active devices now: iOS 2, Android 1').waitFor();
    expect(await review.getByTestId('review-schedule').textContent()).toBe('Now, as soon as it is confirmed');
    expect(await review.getByTestId('review-pacing').textContent()).toMatch(/^Unpaced/);
    await review.getByTestId('review-ios').getByText('Review me').waitFor();
    // A test to one device, by its token, before the campaign.
    await review.getByLabel('Your devices').fill(IOS[0]!);
    await review.getByRole('button', { name: 'Send a test' }).click();
    await review.getByTestId('test-sent').waitFor();
    testId = (await review.getByTestId('test-sent').getByRole('link').getAttribute('href'))!.split('/').pop()!;
    await waitFor('the test delivered by the fake APNs to that device only', async () => harness().fakes!.apns.deliveries.some((delivery) => (delivery.payload as { notification_id?: string }).notification_id === testId), 60_000);
    expect(harness().fakes!.apns.deliveries.filter((delivery) => (delivery.payload as { notification_id?: string }).notification_id === testId).map((delivery) => delivery.token)).toEqual([IOS[0]]);
    expect((await stack.api<{ data: { test_send?: boolean } }>('GET', `/api/v1/notifications/${testId}`)).body.data.test_send).toBe(true);
    // Nothing but the test went out while the review is open, and the list leaves the test out.
    expect((await stack.api<{ pagination: { count: number } }>('GET', '/api/v1/notifications')).body.pagination.count).toBe(0);
    await expectAccessible(page, 'composer review');
    await docsScreenshot(page, 'composer-review');
    await review.getByRole('button', { name: 'Confirm and send' }).click();
    await page.waitForURL(/\/console\/notifications\/[0-9a-f-]{36}$/);
    sentId = page.url().split('/').pop()!;
    await page.getByTestId('report-status').getByText('sent').waitFor({ timeout: 90_000 });
    await waitFor('the fake APNs took both iOS devices', async () => harness().fakes!.apns.deliveries.filter((delivery) => (delivery.payload as { notification_id?: string }).notification_id === sentId).length === 2, 30_000);
  });
});

describe('drafts', { timeout: 120_000 }, () => {
  it('are kept on the server: a saved draft is there after a reload', async () => {
    await page.goto(stack.url('/console/compose'));
    await page.getByLabel('Title', { exact: true }).fill('Spring launch');
    await page.getByLabel('Body').fill('Coming soon');
    await page.getByLabel('Campaign name').fill('Spring launch, wave 1');
    await page.getByTestId('save-draft').click();
    await page.getByTestId('draft-saved').getByText(/^Saved /).waitFor();
    await page.waitForURL(/\?draft=[0-9a-f-]{36}$/);
    await page.reload();
    await expect.poll(() => page.getByLabel('Title', { exact: true }).inputValue()).toBe('Spring launch');
    expect(await page.getByLabel('Body').inputValue()).toBe('Coming soon');
    await page.getByText(/^Saved drafts/).click();
    await page.getByTestId('draft-list').getByRole('link', { name: 'Spring launch, wave 1' }).waitFor();
    await expectAccessible(page, 'composer with a resumed draft');
  });

  it('duplicate a sent notification: its content and audience in a new draft that names where it came from', async () => {
    await page.goto(stack.url(`/console/notifications/${sentId}`));
    await page.getByTestId('duplicate').click();
    await page.waitForURL(/\/console\/compose\?draft=[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByLabel('Title', { exact: true }).inputValue()).toBe('Review me');
    expect(await page.locator('#f-topics option:checked').allTextContents()).toEqual(['news']);
    await page.getByTestId('audience-total').getByText('3').waitFor();
    const draftId = new URL(page.url()).searchParams.get('draft')!;
    const stored = await stack.api<{ data: { name: string; source_notification_id: string } }>('GET', `/api/v1/drafts/${draftId}`);
    expect(stored.body.data).toMatchObject({ name: 'Review me (copy)', source_notification_id: sentId });
  });
});

describe('a scheduled send', { timeout: 120_000 }, () => {
  it('is edited and rescheduled from its report: a new notification replaces it, the old one cancelled', async () => {
    // A whole minute: the composer's time field holds minutes.
    const sendAt = new Date(Math.floor((Date.now() + 3 * 3_600_000) / 60_000) * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const scheduled = await stack.api<{ data: { id: string } }>('POST', '/api/v1/notifications', { notification: { title: 'Flash sale', body: 'Tonight', targets: ['news'], send_at: sendAt } });
    expect(scheduled.status).toBe(201);
    const old = scheduled.body.data.id;
    await page.goto(stack.url(`/console/notifications/${old}`));
    await page.getByTestId('edit-scheduled').click();
    await page.waitForURL(/\/console\/compose\?draft=/);
    await page.getByTestId('editing-scheduled').waitFor();
    await expect.poll(() => page.getByLabel('Title', { exact: true }).inputValue()).toBe('Flash sale');
    await page.getByLabel('Title', { exact: true }).fill('Flash sale, one hour later');
    await page.getByRole('button', { name: 'Review and schedule' }).click();
    await page.getByTestId('review-schedule').getByText(/^At /).waitFor();
    await page.getByRole('button', { name: 'Confirm and schedule' }).click();
    await page.waitForURL((url) => /\/console\/notifications\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(old));
    const replacement = page.url().split('/').pop()!;
    const shown = await stack.api<{ data: { title: string; status: string; replaces?: string; request: { send_at?: string } } }>('GET', `/api/v1/notifications/${replacement}`);
    expect(shown.body.data).toMatchObject({ title: 'Flash sale, one hour later', status: 'scheduled', replaces: old });
    expect(Date.parse(shown.body.data.request.send_at!)).toBe(Date.parse(sendAt));
    await waitFor('the old send cancelled', async () => (await stack.api<{ data: { status: string } }>('GET', `/api/v1/notifications/${old}`)).body.data.status === 'cancelled', 30_000);
    // The old one's report links to what replaced it (read again until the read model shows it).
    await waitFor('the old report names its replacement', async () => {
      await page.goto(stack.url(`/console/notifications/${old}`));
      return (await page.getByTestId('replaced-by').getAttribute('href', { timeout: 3_000 }).catch(() => null)) === `/console/notifications/${replacement}`;
    }, 30_000);
  });
});

describe('the overview', { timeout: 120_000 }, () => {
  it('counts the last 24 hours, or the last 7 or 30 days when chosen (kept in the address)', async () => {
    await page.goto(stack.url('/console/'));
    await page.getByRole('heading', { name: 'Last 24 hours' }).waitFor();
    await page.getByTestId('overview-window').selectOption('168');
    await page.waitForURL(/\?hours=168$/);
    await page.getByRole('heading', { name: 'Last 7 days' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Last 7 days' }).waitFor();
    await page.getByText('Test sends are not counted.').waitFor();
    await expectAccessible(page, 'overview, 7 days');
  });
});

describe('names, search and zones', { timeout: 120_000 }, () => {
  it('searches the list by title and outcome, test sends only when asked', async () => {
    await page.goto(stack.url('/console/notifications'));
    await page.getByLabel('Title').fill('review');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=review/);
    await page.getByRole('link', { name: 'Review me' }).first().waitFor();
    expect(await page.locator(`a[href="/console/notifications/${testId}"]`).count()).toBe(0);
    await page.getByLabel('Test sends too').check();
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.locator(`a[href="/console/notifications/${testId}"]`).count(), { timeout: 20_000, message: 'the test send listed when asked' }).toBeGreaterThan(0);
    await page.getByTestId(`notification-${testId}`).getByText('test', { exact: true }).first().waitFor();
    await expectAccessible(page, 'notifications search');
    await docsScreenshot(page, 'notifications-search');
    await page.getByLabel('Outcome').selectOption('failed');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/outcome=failed/);
    await page.getByTestId('search-empty').getByText('No notification matches this search.').waitFor();
  });

  it('shows a device’s topics and notifications by name, ids on demand', async () => {
    await page.goto(stack.url('/console/devices?q=review-android-1'));
    await page.getByRole('link', { name: 'review-android-1' }).or(page.locator('a[href^="/console/devices/"]').first()).first().click();
    await page.waitForURL(/\/console\/devices\/[0-9a-f-]{36}$/);
    await page.getByTestId('device-topic').getByText('news', { exact: true }).waitFor();
    await page.getByTestId('receipts').getByRole('link', { name: 'Review me' }).first().waitFor();
    expect(await page.getByTestId('receipts').getByText(sentId).count()).toBe(0);
    await page.getByTestId('show-ids').click();
    await page.getByTestId('receipts').getByText(sentId).first().waitFor();
    await expectAccessible(page, 'device page with names');
  });

  it('finds devices by a metadata pair', async () => {
    await page.goto(stack.url('/console/devices'));
    await page.getByLabel('Find by id, token or external id').fill('country=FR');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.waitForURL(/q=country%3DFR/);
    await page.getByText('review-android-1').first().waitFor();
    expect(await page.getByText(IOS[0]!).count()).toBe(0);
    await expectAccessible(page, 'devices by metadata');
  });

  it('explains a device found by its token', async () => {
    await page.goto(stack.url(`/console/notifications/${sentId}/explain`));
    await page.getByTestId('explain-input').fill('review-android-1');
    await page.getByRole('button', { name: 'Explain' }).click();
    await page.getByTestId('explain-resolved').waitFor();
    await page.getByTestId('explain-reason').waitFor({ timeout: 60_000 });
    await expectAccessible(page, 'explain by token');
  });

  it('shows every time with its zone, the browser’s by default, the project’s on request (named, kept across pages)', async () => {
    expect((await stack.api('PATCH', '/api/v1/project', { timezone: 'America/New_York' })).status).toBe(200);
    await page.goto(stack.url(`/console/notifications/${sentId}`));
    await page.getByTestId('zone').getByText('Times in Asia/Tokyo').waitFor();
    const created = page.locator('.facts dt', { hasText: 'Created' }).locator('xpath=following-sibling::dd[1]');
    expect(await created.textContent()).toMatch(/GMT\+9|JST/);
    await page.getByTestId('zone').getByRole('button', { name: 'Show project zone (America/New_York)' }).click();
    await page.getByTestId('zone').getByText('Times in America/New_York').waitFor();
    expect(await created.textContent()).toMatch(/EST|EDT|GMT-5|GMT-4/);
    await page.goto(stack.url('/console/notifications'));
    await page.getByTestId('zone').getByText('Times in America/New_York').waitFor();
    await page.getByTestId('zone').getByRole('button', { name: 'Show your zone (Asia/Tokyo)' }).click();
    await page.getByTestId('zone').getByText('Times in Asia/Tokyo').waitFor();
    expect((await stack.api('PATCH', '/api/v1/project', { timezone: 'UTC' })).status).toBe(200);
  });
});

describe('at 390 px', { timeout: 120_000 }, () => {
  it('the review and the drafts read on a phone', async () => {
    const phone = await (await stack.browser.newContext({ viewport: { width: 390, height: 844 }, timezoneId: 'Asia/Tokyo' })).newPage();
    phone.setDefaultTimeout(20_000);
    await signInWith(phone, stack.url('/console/'), stack.project.api_key);
    await phone.goto(stack.url('/console/compose'));
    await phone.getByLabel('Title', { exact: true }).fill('Phone review');
    await phone.getByLabel('Body').fill('From a phone');
    await phone.locator('#f-topics').selectOption('news');
    await phone.getByTestId('audience-total').getByText('3').waitFor();
    await phone.getByRole('button', { name: 'Review and send' }).click();
    await phone.getByTestId('review-audience').getByText(/3 active devices now/).waitFor();
    expect(await phone.evaluate(pageWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(phone, 'composer review at 390 px');
    await docsScreenshot(phone, 'composer-review');
    await phone.goto(stack.url('/console/notifications?q=review&tests=1'));
    await phone.getByRole('link', { name: 'Review me' }).first().waitFor();
    expect(await phone.evaluate(pageWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(phone, 'notifications search at 390 px');
    await docsScreenshot(phone, 'notifications-search');
    expect(watched.errors).toEqual([]);
  });
});

const harness = () => stack.harness;
// Runs in the page: the test's own types have no DOM.
const pageWidth = () => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth;
