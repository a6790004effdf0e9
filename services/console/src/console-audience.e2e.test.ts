import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { deviceIdFor } from '@herald/events';
import { apnsToken, waitFor } from '@herald/testing';
import { watchPage } from './browser.ts';
import { docsScreenshot, expectAccessible, expectNoRawErrors, signInWith, startConsoleStack, type ConsoleStack } from './e2e-stack.ts';

/**
 * The audience builder (issue 47, item 6) in a real browser against the
 * real stack: "promotions AND country US AND NOT opted_out" built with the
 * controls, counted, saved as a segment, sent to the segment; the send
 * reaches exactly the devices the test computes from what it registered.
 */
const DEVICES = [
  { token: apnsToken('aud-ios-us'), platform: 'ios', topics: ['promotions'], metadata: { country: 'US' } },
  { token: 'aud-android-us', platform: 'android', topics: ['promotions'], metadata: { country: 'US' } },
  { token: apnsToken('aud-ios-us-out'), platform: 'ios', topics: ['promotions'], metadata: { country: 'US', opted_out: 'yes' } },
  { token: apnsToken('aud-ios-fr'), platform: 'ios', topics: ['promotions'], metadata: { country: 'FR' } },
  { token: 'aud-android-us-news', platform: 'android', topics: ['news'], metadata: { country: 'US' } },
];
const EXPRESSION = { and: [{ topic: 'promotions' }, { metadata: { country: 'US' } }, { not: { metadata: { opted_out: { exists: true } } } }] };
/** What the expression names, computed from the registrations. */
const EXPECTED = DEVICES.filter((device) => device.topics.includes('promotions') && device.metadata.country === 'US' && !('opted_out' in device.metadata));

let stack: ConsoleStack;
let page: Page;
let watched: ReturnType<typeof watchPage>;

beforeAll(async () => {
  stack = await startConsoleStack('console-audience', DEVICES, ['promotions', 'news', 'beta']);
  page = await (await stack.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.setDefaultTimeout(15_000);
  watched = watchPage(page);
  await signInWith(page, stack.url('/console/'), stack.project.api_key);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

/** The page's width as laid out: wider than the viewport means a sideways scroll. */
const pageWidth = () => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth;

/** Adds a condition to the builder's top group and gives back its row. */
async function addCondition(builder: Locator): Promise<Locator> {
  const rows = builder.getByTestId('builder-root').locator(':scope > ol > li');
  const before = await rows.count();
  await builder.getByTestId('builder-root').locator(':scope > .node-actions').getByRole('button', { name: 'Add condition' }).click();
  await expect.poll(() => rows.count()).toBe(before + 1);
  return rows.nth(before);
}

async function buildExpression(builder: Locator): Promise<void> {
  const topic = await addCondition(builder);
  await topic.getByLabel('Topic').selectOption('promotions');
  const country = await addCondition(builder);
  await country.getByLabel('Condition').selectOption('metadata');
  await country.getByLabel('Key').fill('country');
  await country.getByLabel('Value').fill('US');
  const optedOut = await addCondition(builder);
  await optedOut.getByLabel('Condition').selectOption('metadata');
  await optedOut.getByLabel('Key').fill('opted_out');
  await optedOut.getByLabel('Test').selectOption('exists');
  await optedOut.getByRole('button', { name: 'Exclude (NOT)' }).click();
}

describe('the audience builder', { timeout: 180_000 }, () => {
  it('builds promotions AND country US AND NOT opted_out, counts it, saves it as a segment and sends to the segment: exactly those devices', async () => {
    await page.goto(stack.url('/console/compose'));
    await page.getByLabel('Title', { exact: true }).fill('US promotions');
    await page.getByLabel('Body').fill('Today only');
    const builder = page.getByTestId('audience-builder');
    await buildExpression(builder);
    // The builder writes the API's expression into the JSON field, exactly.
    await expect.poll(async () => JSON.parse(await page.getByLabel('Expression (JSON)').inputValue()) as unknown).toEqual(EXPRESSION);
    expect(await builder.getByTestId('builder-sentence').textContent()).toBe('In words: devices in topic promotions and with country US, excluding those with opted_out set.');
    await expect.poll(() => page.getByTestId('audience-total').textContent(), { timeout: 20_000, message: 'the live count' }).toBe(String(EXPECTED.length));
    expect(await page.getByTestId('audience').textContent()).toContain('iOS 1, Android 1');
    await expectAccessible(page, 'composer with the audience builder');
    await docsScreenshot(page, 'audience-builder');

    await page.getByLabel('Segment name').fill('us-promos');
    await page.getByRole('button', { name: 'Save as segment' }).click();
    await page.getByRole('status').getByText('Saved segment "us-promos".').waitFor();
    await page.getByRole('button', { name: 'Send to segment "us-promos" instead' }).click();
    expect(JSON.parse(await page.getByLabel('Expression (JSON)').inputValue())).toEqual({ segment: 'us-promos' });
    // The builder shows the segment as a condition picked from the saved ones.
    expect(await builder.getByLabel('Segment').inputValue()).toBe('us-promos');
    await expect.poll(() => page.getByTestId('audience-total').textContent(), { timeout: 20_000 }).toBe(String(EXPECTED.length));

    // The composer sends in two steps: the review, then the confirm.
    await page.getByRole('button', { name: 'Review and send' }).click();
    await page.getByRole('button', { name: 'Confirm and send' }).click();
    await page.waitForURL(/\/console\/notifications\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    const notification = (await stack.api<{ data: { request: { segments?: Array<{ name: string; version: number; filter: unknown }> } } }>('GET', `/api/v1/notifications/${id}`)).body.data;
    expect(notification.request.segments?.map(({ name, version, filter }) => ({ name, version, filter }))).toEqual([{ name: 'us-promos', version: 1, filter: EXPRESSION }]);
    const expected = EXPECTED.map((device) => deviceIdFor(stack.project.id, device.token)).sort();
    let reached: string[] = [];
    await waitFor('the send delivered', async () => {
      const body = (await stack.api<{ data: Array<{ device_id: string; outcome: string }> }>('GET', `/api/v1/notifications/${id}/receipts?limit=100`)).body;
      reached = body.data.map((receipt) => receipt.device_id).sort();
      return reached.length >= expected.length && body.data.every((receipt) => receipt.outcome === 'delivered');
    });
    expect(reached).toEqual(expected);
    expect(watched.errors).toEqual([]);
  });

  it('shows a 422 at the node it names, and counts by platform on the segments screen', async () => {
    await page.goto(stack.url('/console/segments'));
    const row = page.getByTestId('segments').getByRole('row').filter({ hasText: 'us-promos' });
    await expect.poll(() => row.getByTestId('segment-count').textContent(), { timeout: 20_000 }).toMatch(/^2 \(iOS 1, Android 1(, [\w ]+ 0)*\)$/);
    const builder = page.getByTestId('audience-builder');
    const locale = await addCondition(builder);
    await locale.getByLabel('Condition').selectOption('locale');
    await locale.getByLabel(/^Locale/).fill('not a locale!');
    const topic = await addCondition(builder);
    await topic.getByLabel('Topic').selectOption('beta');
    await locale.getByTestId('node-errors').getByText(/^locale: "not a locale!" is not a BCP 47/).waitFor();
    expect(await topic.getByTestId('node-errors').count()).toBe(0);
    await expectAccessible(page, 'segments with a refused condition');
    await docsScreenshot(page, 'audience-builder-422');
    await locale.getByLabel(/^Locale/).fill('fr');
    await expect.poll(() => locale.getByTestId('node-errors').count()).toBe(0);
    await builder.getByTestId('builder-total').waitFor();
    // A count that cannot be had says so, never counts for ever, and can be asked again.
    await page.route('**/api/v1/notifications/dry-run', (route) => route.abort('connectionrefused'));
    await locale.getByLabel(/^Locale/).fill('fr-CA');
    await builder.getByTestId('builder-count-failed').getByText(/^Could not count the audience\./).waitFor();
    await page.unroute('**/api/v1/notifications/dry-run');
    await builder.getByTestId('builder-count').getByRole('button', { name: 'Count again' }).click();
    await builder.getByTestId('builder-total').waitFor();
    await expectNoRawErrors(page);
    // A nested group: any of (topic news, platform iOS).
    await builder.getByTestId('builder-root').locator(':scope > .node-actions').getByRole('button', { name: 'Add group' }).click();
    const group = builder.getByTestId('builder-group');
    await group.getByLabel('Topic').selectOption('news');
    await group.getByRole('button', { name: 'Add condition' }).click();
    const platform = group.getByTestId('condition').nth(1);
    await platform.getByLabel('Condition').selectOption('platform');
    await platform.getByLabel('Platform').selectOption('ios');
    await builder.getByTestId('builder-sentence').getByText('In words: devices with locale fr-CA and in topic beta and (in topic news or on iOS).').waitFor();
    await builder.getByTestId('builder-total').waitFor();
    await expectAccessible(page, 'segments');
    await docsScreenshot(page, 'segments');
  });

  it('edits a segment in the builder as a new version, shows the old one, and deletes it', async () => {
    await page.getByRole('link', { name: 'Edit: us-promos' }).click();
    await page.getByRole('heading', { name: 'Segment us-promos' }).waitFor();
    const builder = page.getByTestId('audience-builder');
    const rows = builder.getByTestId('builder-root').locator(':scope > ol > li');
    expect(await rows.count()).toBe(3);
    await rows.nth(2).getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => builder.getByTestId('builder-total').textContent(), { timeout: 20_000 }).toBe('3');
    await page.getByRole('button', { name: 'Save as version 2' }).click();
    await page.getByRole('status').getByText('Saved version 2.').waitFor();
    await page.getByLabel('Show version').selectOption('1');
    await page.getByTestId('segment-version').getByText(/^Version 1, saved .*: devices in topic promotions and with country US, excluding those with opted_out set\.$/).waitFor();
    await expectAccessible(page, 'segment editor');
    await docsScreenshot(page, 'segment-edit');
    const segment = (await stack.api<{ data: { version: number; filter: unknown } }>('GET', `/api/v1/segments/${page.url().split('/').pop()!}`)).body.data;
    expect(segment).toMatchObject({ version: 2, filter: { and: [{ topic: 'promotions' }, { metadata: { country: 'US' } }] } });

    const narrow = await (await stack.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await signInWith(narrow, stack.url(new URL(page.url()).pathname), stack.project.api_key);
    await narrow.getByTestId('builder-total').waitFor();
    expect(await narrow.evaluate(pageWidth)).toBeLessThanOrEqual(390);
    await docsScreenshot(narrow, 'segment-edit');
    await narrow.goto(stack.url('/console/segments'));
    await narrow.getByTestId('segment-count').first().waitFor();
    expect(await narrow.evaluate(pageWidth)).toBeLessThanOrEqual(390);
    await docsScreenshot(narrow, 'segments');
    await narrow.goto(stack.url('/console/compose'));
    const narrowBuilder = narrow.getByTestId('audience-builder');
    const topic = await addCondition(narrowBuilder);
    await topic.getByLabel('Topic').selectOption('promotions');
    const platform = await addCondition(narrowBuilder);
    await platform.getByLabel('Condition').selectOption('platform');
    await platform.getByRole('button', { name: 'Exclude (NOT)' }).click();
    await narrowBuilder.getByTestId('builder-sentence').getByText('In words: devices in topic promotions, excluding those on iOS.').waitFor();
    await narrow.getByTestId('audience-total').waitFor();
    await docsScreenshot(narrow, 'audience-builder');
    await narrow.close();

    await page.goto(stack.url('/console/segments'));
    await page.getByRole('button', { name: 'Delete: us-promos' }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await page.getByText('No segments yet.').waitFor();
    expect(watched.errors).toEqual([]);
  });
});
