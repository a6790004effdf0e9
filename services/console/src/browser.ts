import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { CONSOLE_ROOT } from './build/console-root.ts';

/**
 * Debian's Chromium (apt-get install chromium), driven by playwright-core:
 * Playwright's own browser download cannot run here. Playwright itself passes
 * --headless, --no-sandbox (its default, needed as root), a fresh temporary
 * profile, --no-first-run, --disable-background-networking,
 * --disable-component-update and --disable-sync (so nothing calls hosts a
 * closed network refuses); it refuses a --user-data-dir argument. Added here:
 * no GPU, no QUIC.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--disable-gpu', '--disable-quic'];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`no Chromium at ${CHROMIUM_PATH}: apt-get install chromium (.ci/run does), or set CHROMIUM_PATH`);
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/** Where the browser tests save their screenshots (git-ignored). */
export const SCREENSHOT_DIR = join(CONSOLE_ROOT, 'test-results');

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** axe-core's violations of any impact (minor and moderate too) on the page as it is now: impact, rule id and the offending elements. */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((violation) => `${violation.impact ?? ''} ${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

/** Console messages about the Content-Security-Policy (anything it blocked), and uncaught page errors. */
export function watchPage(page: Page): { cspViolations: string[]; errors: string[] } {
  const watched = { cspViolations: [] as string[], errors: [] as string[] };
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) watched.cspViolations.push(message.text());
  });
  page.on('pageerror', (error) => watched.errors.push(error.message));
  return watched;
}
