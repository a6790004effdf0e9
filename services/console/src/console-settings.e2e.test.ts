import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apnsToken, waitFor } from '@herald/testing';
import { watchPage } from './browser.ts';
import { docsScreenshot, expectAccessible, signInWith, startConsoleStack, type ConsoleStack } from './e2e-stack.ts';

/**
 * A preview people read (issue 49, item 4) and the project's settings from
 * the console (item 7): lock-screen previews with the platforms' cuts and
 * length hints, what each provider receives (Web Push and Push Kit beside
 * APNs and FCM: issue 46, item 8), a bad number as a field error; topics created and deleted;
 * the project's time zone set; webhooks added, paused and resumed, their secret rotated, replayed and deleted; how to get the
 * operator's token, on the pages that ask for it.
 */
const DEVICES = [
  { token: apnsToken('settings-ios-1'), platform: 'ios', topics: ['news'] },
  { token: 'settings-android-1', platform: 'android', topics: ['news'] },
];

let stack: ConsoleStack;
let page: Page;
let watched: ReturnType<typeof watchPage>;

beforeAll(async () => {
  stack = await startConsoleStack('console-settings', DEVICES, ['news']);
  page = await (await stack.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.setDefaultTimeout(15_000);
  watched = watchPage(page);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

describe('the sign-in pages', { timeout: 60_000 }, () => {
  it('say where a project key and the operator token come from', async () => {
    await page.goto(stack.url('/console/'));
    await page.getByText('npm run herald -- keys issue <project-id>').waitFor();
    await page.getByText(/The operator page takes the server's admin token, not a project key/).waitFor();
    await expectAccessible(page, 'sign-in');
    await docsScreenshot(page, 'sign-in');
    await page.goto(stack.url('/console/operator'));
    await page.getByText(/whoever runs the API sets it when starting it/).waitFor();
    await expectAccessible(page, 'operator sign-in');
    await signInWith(page, stack.url('/console/'), stack.project.api_key);
  });
});

describe('the preview', { timeout: 60_000 }, () => {
  it('shows each platform’s lock screen, cut where it cuts, with length hints; a bad badge is an error on its field, never null', async () => {
    await page.goto(stack.url('/console/compose'));
    const title = 'Our biggest winter sale starts now in every single store';
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByLabel('Body').fill('Everything 20 % off');
    await page.getByTestId('hint-title').getByText(`Title: ${title.length} characters: cut on iOS (50).`).waitFor();
    await page.getByTestId('hint-body').getByText('Body: 19 characters: shown whole everywhere.').waitFor();
    expect(await page.getByTestId('lock-ios').locator('.lock-title').textContent()).toMatch(/^Our biggest winter sale starts now in every…$/);
    expect(await page.getByTestId('lock-android').locator('.lock-title').textContent()).toBe(title);
    // Browsers and Huawei devices beside APNs and FCM: the Declarative Web Push JSON with its headers, and the Push Kit message.
    for (const provider of ['apns', 'fcm', 'webpush', 'hms']) expect(await page.getByTestId(`preview-${provider}`).textContent()).toContain(`"title": "${title}"`);
    expect(await page.getByTestId('preview-webpush').textContent()).toContain('"web_push": 8030');
    await page.getByText(/bytes of plaintext \(4,096 once encrypted\) · headers TTL: 2419200$/).waitFor();
    expect(await page.getByTestId('preview-hms').textContent()).toContain('"click_action"');
    await page.getByLabel('Badge').fill('three');
    await page.getByTestId('errors-badge').getByText('"three" is not a number').waitFor();
    expect(await page.getByTestId('preview-apns').textContent()).not.toContain('null');
    await expectAccessible(page, 'composer with lock-screen previews');
    await docsScreenshot(page, 'composer-lock-screens');
  });
});

describe('topics and webhooks from the console', { timeout: 120_000 }, () => {
  it('creates a topic, refuses a name of a device id’s form on the field, and deletes one after asking', async () => {
    await page.goto(stack.url('/console/topics'));
    await page.getByLabel('New topic').fill('weekly-digest');
    await page.getByRole('button', { name: 'Create topic' }).click();
    await page.getByRole('status').getByText('Created topic "weekly-digest".').waitFor();
    await page.getByTestId('topics').getByRole('cell', { name: 'weekly-digest', exact: true }).waitFor();
    await page.getByLabel('New topic').fill('01a251e1-0def-72e9-861e-40d56cb44055');
    await page.getByRole('button', { name: 'Create topic' }).click();
    await page.locator('#new-topic-errors').getByText(/name/).waitFor();
    await page.getByRole('button', { name: 'Delete: weekly-digest' }).click();
    await page.getByText(/^Delete the topic "weekly-digest"\?/).waitFor();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await expect.poll(() => page.getByTestId('topics').getByRole('cell', { name: 'weekly-digest', exact: true }).count(), { timeout: 20_000, message: 'the deleted topic gone from the list' }).toBe(0);
    const left = (await stack.api<{ data: Array<{ name: string }> }>('GET', '/api/v1/topics')).body.data.map((topic) => topic.name);
    expect(left).toEqual(['news']);
    await expectAccessible(page, 'topics');
  });

  it('sets the project’s time zone, refusing an unknown one on the field, and the switch at the top offers it', async () => {
    await page.goto(stack.url('/console/settings'));
    const field = page.getByLabel('Project time zone (IANA name, e.g. Europe/Paris)');
    expect(await field.inputValue()).toBe('UTC');
    await field.fill('Mars/Olympus');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.locator('#project-zone-errors').getByText(/timezone/).waitFor();
    await field.fill('europe/paris');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.getByText('Saved: the project’s time zone is Europe/Paris.').waitFor();
    expect((await stack.api<{ data: { timezone: string } }>('GET', '/api/v1/project')).body.data.timezone).toBe('Europe/Paris');
    await expectAccessible(page, 'settings');
    await docsScreenshot(page, 'settings-zone');
    const zone = page.getByTestId('zone');
    await zone.getByRole('button', { name: 'Show project zone (Europe/Paris)' }).click();
    await zone.getByText('Times in Europe/Paris').waitFor();
    await zone.getByRole('button', { name: /^Show your zone/ }).click();
    await zone.getByRole('button', { name: 'Show project zone (Europe/Paris)' }).waitFor();
    expect((await stack.api('PATCH', '/api/v1/project', { timezone: 'UTC' })).status).toBe(200);
  });

  it('adds a webhook and shows its secret once, rotates it, replays from a time, and deletes it', async () => {
    await page.goto(stack.url('/console/webhooks'));
    await page.getByLabel('Endpoint (https URL)').fill('https://hooks.example.com/herald');
    await page.getByLabel('Event types').fill('DeliveryReported, NotificationOpened');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = page.getByTestId('webhook-secret');
    await secret.getByText(/^Signing secret for https:\/\/hooks\.example\.com\/herald:/).waitFor();
    const first = await secret.locator('code').textContent();
    expect(first).toMatch(/\S{16,}/);
    const [webhook] = (await stack.api<{ data: Array<{ id: string; event_types: string[] }> }>('GET', '/api/v1/webhooks')).body.data;
    expect(webhook!.event_types).toEqual(['DeliveryReported', 'NotificationOpened']);
    await page.getByTestId('webhooks').getByRole('cell', { name: 'https://hooks.example.com/herald', exact: true }).waitFor();
    await docsScreenshot(page, 'webhooks-secret');

    await page.getByRole('button', { name: 'Rotate secret: https://hooks.example.com/herald' }).click();
    await page.getByRole('button', { name: 'Yes, rotate it' }).click();
    await secret.getByText(/^New signing secret for/).waitFor();
    expect(await secret.locator('code').textContent()).not.toBe(first);

    await page.getByRole('button', { name: 'Pause: https://hooks.example.com/herald' }).click();
    await page.getByTestId('webhook-paused').waitFor();
    expect((await stack.api<{ data: Array<{ paused: boolean }> }>('GET', '/api/v1/webhooks')).body.data[0]!.paused).toBe(true);
    await page.getByRole('button', { name: 'Resume: https://hooks.example.com/herald' }).click();
    await page.getByText('Resumed: it delivers what it missed, then goes on.').waitFor();
    await page.getByTestId('webhook-paused').waitFor({ state: 'detached' });
    expect((await stack.api<{ data: Array<{ paused: boolean }> }>('GET', '/api/v1/webhooks')).body.data[0]!.paused).toBe(false);

    await page.getByLabel('Replay from').fill('2026-01-01T09:00');
    await page.getByRole('button', { name: 'Replay: https://hooks.example.com/herald' }).click();
    await page.getByText('Replay started: everything since then is delivered again, with the same event ids.').waitFor();
    await expectAccessible(page, 'webhooks');

    await page.getByRole('button', { name: 'Delete: https://hooks.example.com/herald' }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await waitFor('the webhook deleted', async () => (await stack.api<{ data: unknown[] }>('GET', '/api/v1/webhooks')).body.data.length === 0);
    await page.getByText('No webhooks yet.').waitFor();
    expect(watched.errors).toEqual([]);
  });
});
