import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createTopics, startApiHarness, waitFor, type ApiHarness, type HarnessOptions } from '@herald/testing';
import { buildConsole } from './build/build.ts';
import { CONSOLE_ROOT } from './build/console-root.ts';
import { AxeBuilder } from '@axe-core/playwright';
import { launchChromium } from './browser.ts';

/** Where the screenshots a person looks at are committed: docs/console/. */
export const DOCS_SCREENSHOT_DIR = join(CONSOLE_ROOT, '../../docs/console');

export interface ConsoleStack {
  harness: ApiHarness;
  project: { id: string; api_key: string };
  browser: Browser;
  url(path: string): string;
  api<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

/**
 * The real stack for a browser test file: the console built into a
 * directory of the file's own (files run side by side), the API serving it,
 * projector, delivery with fake APNs and FCM, a project with `devices`
 * registered and `topics` created, and Chromium.
 */
export async function startConsoleStack(name: string, devices: ReadonlyArray<{ token: string; platform: string; topics?: readonly string[] }>, topics: string[], options: HarnessOptions = {}): Promise<ConsoleStack> {
  const dist = await mkdtemp(join(tmpdir(), `herald-console-${name}-`));
  await buildConsole({ quiet: true, outDir: dist });
  const harness = await startApiHarness(name, { delivery: true, ...options, apiEnv: { CONSOLE_DIR: dist, ...options.apiEnv } });
  const project = await harness.createProject(name);
  await harness.fakes!.configure(project.id);
  await createTopics(harness, project.api_key, topics);
  const api = async <T>(method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const response = await harness.request(method, path, { key: project.api_key, body, ...(headers === undefined ? {} : { headers }) });
    return { status: response.status, body: response.body as T };
  };
  for (const device of devices) {
    const response = await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, ...device } });
    expect(response.status, device.token).toBe(201);
  }
  await waitFor('devices projected', async () => (await api<{ pagination: { count: number } }>('GET', '/api/v1/devices?limit=1')).body.pagination.count === devices.length);
  const browser = await launchChromium();
  return {
    harness,
    project,
    browser,
    url: (path) => `${harness.baseUrl}${path}`,
    api,
    stop: async () => {
      await browser.close();
      await harness.stop();
      await rm(dist, { recursive: true, force: true });
    },
  };
}

/** Signs in on the console's sign-in page with `key`. */
export async function signInWith(page: Page, url: string, key: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Project API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('main h1').filter({ hasNotText: 'Herald console' }).waitFor();
}

/** axe-core finds no violation at all on the page as it is now (of any impact, minor included). */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const violations = results.violations.map((violation) => `${violation.impact ?? ''} ${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
  expect(violations, `axe on ${screen}`).toEqual([]);
}

/** A screenshot committed under docs/console/ (the viewport's width in its name), to be looked at. */
export async function docsScreenshot(page: Page, name: string): Promise<void> {
  await mkdir(DOCS_SCREENSHOT_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: join(DOCS_SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: true });
}

/** Nothing on the page shows the browser's own words for a failed request. */
export async function expectNoRawErrors(page: Page): Promise<void> {
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(/Failed to fetch|TypeError|NetworkError/);
}
