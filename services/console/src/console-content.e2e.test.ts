import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { assignDevice } from '@herald/templates';
import { apnsToken, waitFor } from '@herald/testing';
import { watchPage } from './browser.ts';
import { docsScreenshot, expectAccessible, signInWith, startConsoleStack, type ConsoleStack } from './e2e-stack.ts';

/**
 * Content in the console (issue 48, item 6) in Chromium against the real
 * stack: a template with two locales made in the library (a bad Liquid line
 * refused by the API's save-time check, shown at its field), sent from the
 * composer through the review to a French and an English device, each
 * getting its language at the fake APNs; then an A/B send with a holdout,
 * whose report shows each variant's counts as the assignment hash places
 * the devices. A literal send with a French localisation reaches each
 * device in its language too.
 */
const FR = apnsToken('content-fr');
const EN = apnsToken('content-en');
const AB = Array.from({ length: 20 }, (_, n) => apnsToken(`content-ab-${n}`));
const DEVICES = [
  { token: FR, platform: 'ios', topics: ['greet'], locale: 'fr-FR' },
  { token: EN, platform: 'ios', topics: ['greet'], locale: 'en-US' },
  ...AB.map((token) => ({ token, platform: 'ios', topics: ['ab'] })),
];

let stack: ConsoleStack;
let context: BrowserContext;
let page: Page;
let watched: ReturnType<typeof watchPage>;
let templateId: string;
let abId: string;

beforeAll(async () => {
  stack = await startConsoleStack('console-content', DEVICES, ['greet', 'ab']);
  context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  watched = watchPage(page);
  await signInWith(page, stack.url('/console/'), stack.project.api_key);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

const alertsOf = (id: string) =>
  new Map(
    stack.harness
      .fakes!.apns.deliveries.filter((delivery) => (delivery.payload as { notification_id?: string }).notification_id === id)
      .map((delivery) => [delivery.token, (delivery.payload as { aps: { alert: unknown } }).aps.alert]),
  );

describe('the template library', { timeout: 120_000 }, () => {
  it('makes a template with two locales; a bad Liquid line is refused at its field', async () => {
    await page.goto(stack.url('/console/templates'));
    await page.getByTestId('templates-empty').waitFor();
    await expectAccessible(page, 'template library (empty)');
    await page.getByTestId('new-template').click();
    await page.waitForURL(/\/console\/templates\/new$/);
    await page.getByLabel('Name', { exact: true }).fill('welcome');
    const panel = page.getByTestId('locale-panel');
    await panel.getByLabel('Title').fill('Hello {{ name }}');
    await panel.getByLabel('Body').fill('Your code: {{ code }}');
    await page.getByLabel('Add a locale').fill('fr');
    await page.getByRole('button', { name: 'Add locale' }).click();
    await page.getByRole('tab', { name: 'fr', selected: true }).waitFor();
    await panel.getByLabel('Title').fill('Bonjour {{ name }}');
    await panel.getByLabel('Body').fill('Votre code :\n{{ code | nosuch }}');
    // Back on default: a save-time problem in fr opens its tab.
    await page.getByRole('tab', { name: 'default' }).click();
    await page.getByTestId('save-template').click();
    await page.getByTestId('t-fr-body-errors').getByText('content.fr.body line 2: undefined filter: nosuch').waitFor();
    await page.getByRole('tab', { name: /^fr \(has a problem\)$/, selected: true }).waitFor();
    expect(await panel.getByLabel('Body').getAttribute('aria-invalid')).toBe('true');
    expect((await stack.api<{ data: unknown[] }>('GET', '/api/v1/templates')).body.data).toEqual([]);
    await expectAccessible(page, 'template editor with a save-time problem');
    await docsScreenshot(page, 'template-editor-error');

    await panel.getByLabel('Body').fill('Votre code : {{ code }}');
    await page.getByTestId('save-template').click();
    await page.waitForURL(/\/console\/templates\/[0-9a-f-]{36}$/);
    templateId = page.url().split('/').pop()!;
    const saved = await stack.api<{ data: { version: number; content: Record<string, { title: string }> } }>('GET', `/api/v1/templates/${templateId}`);
    expect(saved.body.data).toMatchObject({ version: 1, content: { default: { title: 'Hello {{ name }}' }, fr: { title: 'Bonjour {{ name }}' } } });
  });

  it('previews what a device of a locale gets, and saves a new version', async () => {
    await page.locator('h1', { hasText: 'welcome' }).waitFor();
    await page.getByLabel('Variables (JSON)').fill('{"name": "Ana", "code": "X7"}');
    await page.getByLabel('Device locale').fill('fr-CA');
    await page.getByTestId('preview-locale').getByText('fr', { exact: true }).waitFor();
    await page.getByTestId('lock-ios').getByText('Bonjour Ana').waitFor();
    await page.getByLabel('Device locale').fill('de');
    await page.getByTestId('preview-locale').getByText('default', { exact: true }).waitFor();
    await page.getByTestId('lock-ios').getByText('Your code: X7').waitFor();
    const panel = page.getByTestId('locale-panel');
    await panel.getByLabel('Title').fill('Hi {{ name }}');
    await page.getByTestId('lock-ios').getByText('Hi Ana').waitFor();
    await page.getByTestId('save-template').click();
    await page.getByTestId('template-saved').getByText('Saved as version 2.').waitFor();
    await expect.poll(() => page.locator('#t-version option').count()).toBe(2);
    await expectAccessible(page, 'template editor');
    await docsScreenshot(page, 'template-editor');
    await page.goto(stack.url('/console/templates'));
    await page.getByRole('link', { name: 'welcome' }).waitFor();
    await docsScreenshot(page, 'templates');
  });
});

describe('a send with a template', { timeout: 180_000 }, () => {
  it('goes through the review, and each device gets its language', async () => {
    await page.goto(stack.url('/console/compose?template=welcome'));
    expect(await page.getByLabel('A template').isChecked()).toBe(true);
    expect(await page.getByLabel('Template', { exact: true }).inputValue()).toBe('welcome');
    await page.getByLabel('Variables (JSON)').fill('{"name": "Ana", "code": "X7"}');
    await page.locator('#f-topics').selectOption('greet');
    await page.getByTestId('audience-total').getByText('2').waitFor();
    await page.getByRole('button', { name: 'Review and send' }).click();
    await page.getByTestId('review-template').getByText('welcome').waitFor();
    await expectAccessible(page, 'review of a template send');
    await docsScreenshot(page, 'composer-template-review');
    await page.getByRole('button', { name: 'Confirm and send' }).click();
    await page.waitForURL(/\/console\/notifications\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    await waitFor('both devices delivered by the fake APNs', async () => alertsOf(id).size === 2, 90_000);
    expect(alertsOf(id).get(FR)).toEqual({ title: 'Bonjour Ana', body: 'Votre code : X7' });
    expect(alertsOf(id).get(EN)).toEqual({ title: 'Hi Ana', body: 'Your code: X7' });
    // The report counts each content locale (GET …/report `locales`): fr for the French device, default for the English one.
    const localeRow = async (locale: string) => (await page.getByTestId(`locale-row-${locale}`).locator('td').allTextContents()).slice(0, 2);
    await expect
      .poll(
        async () => {
          if ((await page.getByTestId('locale-row-default').count()) === 0) await page.reload();
          return [await localeRow('fr'), await localeRow('default')];
        },
        { timeout: 60_000, interval: 2_000 },
      )
      .toEqual([
        ['1', '1'],
        ['1', '1'],
      ]);
    await page.locator('h1', { hasText: 'Template welcome' }).waitFor();
    await expectAccessible(page, 'report of a template send');
    await docsScreenshot(page, 'report-locales');
    // Duplicated into a draft: the template (at the version it was sent with) and its variables come back.
    await page.getByTestId('duplicate').click();
    await page.waitForURL(/\/console\/compose\?draft=[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByLabel('Template', { exact: true }).inputValue()).toBe('welcome');
    expect(await page.getByLabel('A template').isChecked()).toBe(true);
    expect(await page.getByLabel('Version').inputValue()).toBe('2');
    expect(JSON.parse(await page.getByLabel('Variables (JSON)').inputValue())).toEqual({ name: 'Ana', code: 'X7' });
  });
});

describe('a localised text send', { timeout: 180_000 }, () => {
  it('sends the French text to the French device and the default to the English one', async () => {
    await page.goto(stack.url('/console/compose'));
    await page.getByLabel('Title', { exact: true }).fill('Sale');
    await page.getByLabel('Body').fill('Today only');
    await page.getByLabel('Add a locale').fill('fr');
    await page.getByRole('button', { name: 'Add locale' }).click();
    await page.getByLabel('Title (fr)').fill('Soldes');
    await page.getByLabel('Body (fr)').fill("Aujourd'hui seulement");
    // The tabs follow the keyboard: ← selects Default and focuses it.
    await page.getByRole('tab', { name: 'fr' }).press('ArrowLeft');
    const defaultTab = page.getByRole('tab', { name: 'Default', selected: true });
    await defaultTab.waitFor();
    await expect.poll(() => defaultTab.evaluate((tab) => (tab as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement === tab)).toBe(true);
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Sale');
    await page.locator('#f-topics').selectOption('greet');
    await page.getByTestId('audience-total').getByText('2').waitFor();
    await page.getByRole('button', { name: 'Review and send' }).click();
    await page.getByTestId('review-locales').getByText('Soldes').waitFor();
    await page.getByRole('button', { name: 'Confirm and send' }).click();
    await page.waitForURL(/\/console\/notifications\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    await waitFor('both devices delivered by the fake APNs', async () => alertsOf(id).size === 2, 90_000);
    expect(alertsOf(id).get(FR)).toEqual({ title: 'Soldes', body: "Aujourd'hui seulement" });
    expect(alertsOf(id).get(EN)).toEqual({ title: 'Sale', body: 'Today only' });
  });
});

describe('an A/B send with a holdout', { timeout: 180_000 }, () => {
  it('is composed with its variants side by side and its report counts each variant and the holdout', async () => {
    await page.goto(stack.url('/console/compose'));
    await page.getByLabel('An A/B test').check();
    await page.getByLabel('Title of A').fill('Sale');
    await page.getByLabel('Body of A').fill('Today only');
    await page.getByLabel('Title of B').fill('Flash sale');
    await page.getByLabel('Body of B').fill('Two hours left');
    await page.getByLabel('Holdout (%)').fill('60');
    await page.getByTestId('errors-holdout_percent').getByText('holdout (%): a whole number from 0 to 50').waitFor();
    await page.getByLabel('Holdout (%)').fill('30');
    await page.locator('#f-topics').selectOption('ab');
    await page.getByTestId('audience-total').getByText('20').waitFor();
    await expectAccessible(page, 'composer with an A/B test');
    await docsScreenshot(page, 'composer-ab');
    await page.getByRole('button', { name: 'Review and send' }).click();
    await page.getByTestId('review-variant-B').getByText('Flash sale').waitFor();
    await page.getByTestId('review-split').getByText(/30 % of the audience gets nothing/).waitFor();
    await page.getByRole('button', { name: 'Confirm and send' }).click();
    await page.waitForURL(/\/console\/notifications\/[0-9a-f-]{36}$/);
    abId = page.url().split('/').pop()!;

    // Where the hash puts each device: the report must show exactly this.
    const listed = await stack.api<{ data: Array<{ id: string; token: string }> }>('GET', '/api/v1/devices?limit=100');
    const ids = listed.body.data.filter((device) => AB.includes(device.token)).map((device) => device.id);
    expect(ids).toHaveLength(AB.length);
    const placed = ids.map((deviceId) => assignDevice({ variants: 2, holdoutPercent: 30 }, abId, deviceId));
    const inVariant = (index: number) => placed.filter((each) => each.kind === 'variant' && each.index === index).length;
    const heldOut = placed.filter((each) => each.kind === 'held_out').length;
    await waitFor('the fake APNs took every device outside the holdout', async () => alertsOf(abId).size === AB.length - heldOut, 90_000);
    const row = (name: string) => page.getByTestId(`variant-row-${name}`).locator('td');
    await expect.poll(async () => (await row('A').allTextContents()).slice(0, 2), { timeout: 60_000 }).toEqual([String(inVariant(0)), String(inVariant(0))]);
    await expect.poll(async () => (await row('B').allTextContents()).slice(0, 2), { timeout: 60_000 }).toEqual([String(inVariant(1)), String(inVariant(1))]);
    if (heldOut > 0) await expect.poll(async () => (await row('holdout').allTextContents())[3], { timeout: 60_000 }).toBe(String(heldOut));
    await page.getByTestId('variant-decision').getByText(/No test share/).waitFor();
    await expectAccessible(page, 'report of an A/B send');
    await docsScreenshot(page, 'report-variants');
  });
});

describe('an A/B send with a test share', { timeout: 180_000 }, () => {
  it('says in the review and the report when it decides and what the rest gets if nothing wins', async () => {
    await page.goto(stack.url('/console/compose'));
    await page.getByLabel('An A/B test').check();
    await page.getByLabel('Title of A').fill('Sale');
    await page.getByLabel('Body of A').fill('Today');
    // B is the template, with its variables.
    await page.getByRole('radiogroup', { name: 'Variant 2 is' }).getByLabel('Template').check();
    await page.getByLabel('Template of B').fill('welcome');
    await page.getByLabel('Variables of B (JSON)').fill('{"name": "Ana", "code": "X7"}');
    await page.getByLabel('Test share (%)').fill('50');
    await page.getByLabel('Decide after').fill('2 hours');
    await page.getByTestId('errors-decideAfter').getByText(/an ISO 8601 duration/).waitFor();
    await page.getByLabel('Decide after').fill('P1D');
    await page.getByLabel('When no variant wins').selectOption('B');
    await page.locator('#f-topics').selectOption('ab');
    await page.getByTestId('audience-total').getByText('20').waitFor();
    await page.getByRole('button', { name: 'Review and send' }).click();
    await page.getByTestId('review-variant-B').getByText('welcome').waitFor();
    await page.getByTestId('review-split').getByText('50 % of the rest tries the variants; after P1D the best open rate (if significant, else B) goes to the remainder').waitFor();
    await page.getByRole('button', { name: 'Confirm and send' }).click();
    await page.waitForURL(/\/console\/notifications\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    await page.getByTestId('variant-decision').getByText(/^Not decided yet: due /).waitFor({ timeout: 60_000 });
    const request = (await stack.api<{ data: { request: Record<string, unknown> } }>('GET', `/api/v1/notifications/${id}`)).body.data.request;
    expect(request).toMatchObject({ test: { percent: 50, decide_after: 'P1D', metric: 'open_rate' }, fallback: 'B' });
    expect((request.variants as Array<{ template?: { name: string; version: number; variables: unknown } }>)[1]!.template).toMatchObject({ name: 'welcome', version: 2, variables: { name: 'Ana', code: 'X7' } });
  });
});

describe('at 390 px', { timeout: 120_000 }, () => {
  it('the library, the editor, the A/B composer and the report read on a phone', async () => {
    const phone = await (await stack.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    phone.setDefaultTimeout(20_000);
    await signInWith(phone, stack.url('/console/'), stack.project.api_key);
    const screens: Array<[string, string, (p: Page) => Promise<void>]> = [
      ['/console/templates', 'templates', async (p) => void (await p.getByRole('link', { name: 'welcome' }).waitFor())],
      [`/console/templates/${templateId}`, 'template-editor', async (p) => void (await p.getByTestId('locale-panel').waitFor())],
      ['/console/compose', 'composer-ab', async (p) => void (await p.getByLabel('An A/B test').check())],
      [`/console/notifications/${abId}`, 'report-variants', async (p) => void (await p.getByTestId('variant-counts').waitFor())],
    ];
    for (const [path, name, ready] of screens) {
      await phone.goto(stack.url(path));
      await ready(phone);
      expect(await phone.evaluate(pageWidth), name).toBeLessThanOrEqual(390);
      await expectAccessible(phone, `${name} at 390 px`);
      await docsScreenshot(phone, name);
    }
    expect(watched.errors).toEqual([]);
  });
});

describe('deleting a template', { timeout: 120_000 }, () => {
  it('asks first, then the library no longer has it and a send naming it is refused', async () => {
    await page.goto(stack.url(`/console/templates/${templateId}`));
    await page.getByRole('button', { name: 'Delete: template welcome' }).click();
    await page.getByRole('button', { name: 'Delete the template' }).click();
    await page.waitForURL(/\/console\/templates$/);
    await page.getByTestId('templates-empty').waitFor();
    const send = await stack.api<{ errors: string[] }>('POST', '/api/v1/notifications', { notification: { template: 'welcome', targets: ['greet'] } });
    expect(send.status).toBe(422);
  });
});

// Runs in the page: the test's own types have no DOM.
const pageWidth = () => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth;
