import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apnsToken, startApiHarness, waitFor, type ApiHarness } from '@herald/testing';

/**
 * Template and localised sends through the real pipeline (API, Kafka, the
 * store, fan-out, senders) to the FCM fake: each device gets its language
 * with the documented fallbacks and its own values; a device whose render
 * fails is failed alone; a template deleted after the send still renders it.
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };

const DEVICES = [
  { token: 'tpl-fr-ca', locale: 'fr-CA', metadata: { first_name: 'Ana' } },
  { token: 'tpl-de', locale: 'de', metadata: { first_name: 'Bo' } },
  { token: 'tpl-none', metadata: {} },
  { token: 'tpl-es', locale: 'es-MX', metadata: { first_name: 'Cy' } },
] as const;
const IOS = { token: apnsToken('tpl-ios-fr'), locale: 'fr', metadata: { first_name: 'Dee' } };
const targets = [...DEVICES.map((device) => ({ token: device.token })), { token: IOS.token }];

beforeAll(async () => {
  harness = await startApiHarness('templates', { delivery: true });
  project = await harness.createProject('templates');
  await harness.fakes!.configure(project.id);
  for (const device of DEVICES) {
    const response = await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'android', ...device } });
    expect(response.status).toBe(201);
  }
  expect((await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'ios', ...IOS } })).status).toBe(201);
  await waitFor('devices projected', async () => {
    const listed = await harness.request('GET', '/api/v1/devices?limit=1', { key: project.api_key });
    return (listed.body?.pagination as { count: number } | undefined)?.count === DEVICES.length + 1;
  });
}, 180_000);

afterAll(async () => {
  await harness?.stop();
});

const send = async (notification: Record<string, unknown>) => harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { targets, ...notification } } });

/** What each token received for the notification: title and body, once all `count` arrived. */
async function arrivals(id: string, count: number): Promise<Map<string, { title?: string; body?: string }>> {
  return waitFor(`${count} pushes of ${id} at the FCM fake`, () => {
    const found = harness.fakes!.fcm.deliveries.filter((delivery) => (delivery.message.data as { notification_id?: string } | undefined)?.notification_id === id);
    if (found.length < count) return undefined;
    return new Map(found.map((delivery) => [delivery.message.token as string, delivery.message.notification as { title?: string; body?: string }]));
  }, 60_000);
}

async function finished(id: string): Promise<{ delivered: number; failed: number }> {
  return waitFor(`notification ${id} sent`, async () => {
    const data = (await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as { status: string; counts: { delivered: number; failed: number } } | undefined;
    return data?.status === 'sent' ? data.counts : undefined;
  }, 60_000);
}

const content = {
  default: { title: 'Hi {{ device.metadata.first_name | default: "there" }}', body: 'Your code: {{ code }}' },
  fr: { title: 'Bonjour {{ device.metadata.first_name | default: "à vous" }}', body: 'Votre code : {{ code }}' },
  es: { title: 'Hola {{ device.metadata.apodo }}', body: 'Tu código: {{ code }}' },
};

describe('template sends', () => {
  it('renders each device in its language with its values, fails only the device whose render fails, and survives the template being deleted', async () => {
    const created = await harness.request('POST', '/api/v1/templates', { key: project.api_key, body: { name: 'welcome', content } });
    expect(created.status).toBe(201);
    const templateId = (created.body!.data as { id: string }).id;

    // Bad references and variables: 422 naming what is wrong, nothing sent.
    expect(await send({ template: 'nosuch', variables: {} })).toEqual({ status: 422, body: { errors: ['notification.template "nosuch" is not a template of this project'] } });
    expect(await send({ template: 'welcome@9', variables: { code: 1 } })).toEqual({ status: 422, body: { errors: ['notification.template "welcome" has no version 9'] } });
    const missing = await send({ template: 'welcome', variables: {} });
    expect(missing.status).toBe(422);
    expect(missing.body!.errors).toContain('notification.variables: content.default.body line 1: undefined variable: code');
    expect((await send({ template: 'welcome', title: 't', body: 'b', variables: { code: 1 } })).status).toBe(422);

    const accepted = await send({ template: 'welcome@1', variables: { code: 'X7' } });
    expect(accepted.status).toBe(201);
    const id = (accepted.body!.data as { id: string }).id;
    // Deleted once the send is accepted: the send carries its version, so it renders all the same.
    expect((await harness.request('DELETE', `/api/v1/templates/${templateId}`, { key: project.api_key })).status).toBe(204);

    const received = await arrivals(id, 3);
    expect(Object.fromEntries(received)).toEqual({
      'tpl-fr-ca': { title: 'Bonjour Ana', body: 'Votre code : X7' },
      'tpl-de': { title: 'Hi Bo', body: 'Your code: X7' },
      'tpl-none': { title: 'Hi there', body: 'Your code: X7' },
    });
    // APNs gets its own render: one payload per content there too.
    const ios = await waitFor('the iOS push', () => harness.fakes!.apns.deliveries.find((delivery) => (delivery.payload as { notification_id?: string }).notification_id === id));
    expect((ios.payload as { aps: { alert: unknown } }).aps.alert).toEqual({ title: 'Bonjour Dee', body: 'Votre code : X7' });
    expect(await finished(id)).toMatchObject({ delivered: 4, failed: 1 });
    // Receipts are projected from the reports a moment later.
    const failed = await waitFor('the failed receipt', async () => {
      const rows = (await harness.request('GET', `/api/v1/notifications/${id}/receipts?outcome=failed`, { key: project.api_key })).body?.data as unknown[] | undefined;
      return rows !== undefined && rows.length > 0 ? rows : undefined;
    });
    expect(failed).toMatchObject([{ outcome: 'failed', reason: 'TemplateError' }]);

    // The report's funnel per content locale: what each language reached, and its opens (one French device opens it).
    expect((await harness.request('PUT', `/api/v1/notifications/${id}/open`, { body: { project_id: project.id, token: 'tpl-fr-ca' } })).status).toBe(204);
    const locales = await waitFor('the funnel by locale', async () => {
      const report = (await harness.request('GET', `/api/v1/notifications/${id}/report`, { key: project.api_key })).body?.data as { locales?: Array<{ locale: string; opened: number }> } | undefined;
      return report?.locales?.find((row) => row.locale === 'fr')?.opened === 1 ? report.locales : undefined;
    });
    expect(locales).toEqual([
      { locale: 'default', targeted: 2, delivered: 2, failed: 0, opened: 0, open_rate: 0 },
      { locale: 'fr', targeted: 2, delivered: 2, failed: 0, opened: 1, open_rate: 0.5 },
      { locale: 'es', targeted: 1, delivered: 0, failed: 1, opened: 0, open_rate: null },
    ]);
  });

  it("lays a literal send's localisations over its content for devices of that language", async () => {
    const accepted = await send({ title: 'Sale', body: 'Today only', localizations: { fr: { title: 'Soldes', body: "Aujourd'hui seulement" }, es: { title: 'Rebajas' } } });
    expect(accepted.status).toBe(201);
    const received = await arrivals((accepted.body!.data as { id: string }).id, 4);
    expect(Object.fromEntries(received)).toEqual({
      'tpl-fr-ca': { title: 'Soldes', body: "Aujourd'hui seulement" },
      'tpl-de': { title: 'Sale', body: 'Today only' },
      'tpl-none': { title: 'Sale', body: 'Today only' },
      'tpl-es': { title: 'Rebajas', body: 'Today only' },
    });
  });

  it('renders a send taken up after a crash from the version it pinned, though the template was rewritten and deleted meanwhile', async () => {
    const created = await harness.request('POST', '/api/v1/templates', { key: project.api_key, body: { name: 'pinned', content: { default: { title: 'First {{ device.metadata.first_name | default: "you" }}', body: 'v1' } } } });
    expect(created.status).toBe(201);
    const templateId = (created.body!.data as { id: string }).id;
    let id = '';
    // Delivery killed (-9): the request waits in Kafka while the template changes under it.
    await harness.restartDelivery!('SIGKILL', {
      whileDown: async () => {
        const accepted = await send({ template: 'pinned' });
        expect(accepted.status).toBe(201);
        id = (accepted.body!.data as { id: string }).id;
        const rewritten = await harness.request('PUT', `/api/v1/templates/${templateId}`, { key: project.api_key, body: { content: { default: { title: 'Second {{ device.metadata.first_name | default: "you" }}', body: 'v2' } } } });
        expect(rewritten.status, JSON.stringify(rewritten.body)).toBe(200);
        expect((await harness.request('DELETE', `/api/v1/templates/${templateId}`, { key: project.api_key })).status).toBe(204);
      },
    });
    const received = await arrivals(id, 4);
    expect(Object.fromEntries(received)).toEqual({
      'tpl-fr-ca': { title: 'First Ana', body: 'v1' },
      'tpl-de': { title: 'First Bo', body: 'v1' },
      'tpl-none': { title: 'First you', body: 'v1' },
      'tpl-es': { title: 'First Cy', body: 'v1' },
    });
    expect(await finished(id)).toMatchObject({ delivered: 5, failed: 0 });
  }, 180_000);
});
