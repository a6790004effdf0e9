import { describe, expect, it } from 'vitest';
import { createEvent } from '@herald/events';
import { sendByContent, sendEachByContent, splitTemplateErrors, TEMPLATE_ERROR } from './batch-contents.ts';

const batch = createEvent(
  'DeliveryBatch',
  {
    batch_id: 'b',
    notification_id: 'n',
    provider: 'fcm',
    sequence: 0,
    message: { title: 'base', body: 'base', badge: 2 },
    contents: [{ title: 'Bonjour', body: 'fr' }, { title: 'Hi', body: 'en' }],
    devices: [
      { device_id: 'a', token: 'ta', content: 0, locale: 'fr' },
      { device_id: 'b', token: 'tb', content: 1, locale: 'default' },
      { device_id: 'c', token: 'tc', locale: 'de', error: 'content.de.title line 1: undefined variable: x' },
      { device_id: 'd', token: 'td', content: 0, locale: 'fr' },
    ],
  },
  { project_id: 'p' },
);

describe('batch contents', () => {
  it('fails the devices whose content did not render, unsent, and keeps the others', () => {
    const { renderable, failed } = splitTemplateErrors(batch);
    expect(renderable.map((device) => device.device_id)).toEqual(['a', 'b', 'd']);
    expect(failed).toEqual([{ device_id: 'c', outcome: 'rejected', reason: TEMPLATE_ERROR, attempts: 0 }]);
  });

  it('builds one payload per content and sends each group its own', async () => {
    const built: string[] = [];
    const sent: Array<[string[], string]> = [];
    const send = sendByContent(
      { notification_id: 'n', project_id: 'p', title: 'base', body: 'base', badge: 2 },
      batch,
      (message) => {
        built.push(`${message.title}/${message.body}/${message.badge}`);
        return message.title;
      },
      async (devices, payload) => {
        sent.push([devices.map((device) => device.device_id), payload]);
        return devices.map((device) => ({ device_id: device.device_id, outcome: 'delivered', attempts: 1 }));
      },
      'PayloadBuildFailed',
    );
    const results = await send(splitTemplateErrors(batch).renderable);
    expect(built).toEqual(['Bonjour/fr/2', 'Hi/en/2']);
    expect(sent).toEqual([[['a', 'd'], 'Bonjour'], [['b'], 'Hi']]);
    expect(results.map((result) => result.device_id).sort()).toEqual(['a', 'b', 'd']);
  });

  it('fails only the group whose payload cannot be built', async () => {
    const send = sendByContent({ notification_id: 'n', project_id: 'p', title: '', body: '' }, batch, (message) => (message.title === 'Hi' ? undefined : 'ok'), async (devices) => devices.map((device) => ({ device_id: device.device_id, outcome: 'delivered', attempts: 1 })), 'PayloadBuildFailed');
    const results = await send(splitTemplateErrors(batch).renderable);
    expect(results.find((result) => result.device_id === 'b')).toEqual({ device_id: 'b', outcome: 'rejected', reason: 'PayloadBuildFailed', attempts: 1 });
    expect(results.find((result) => result.device_id === 'a')?.outcome).toBe('delivered');
  });

  it('sends every device in one call, each with its content\'s payload built once per content (a provider whose call carries a payload per device)', async () => {
    const built: string[] = [];
    const calls: Array<Array<[string, string]>> = [];
    const send = sendEachByContent(
      { notification_id: 'n', project_id: 'p', title: 'base', body: 'base', badge: 2 },
      batch,
      (message) => {
        built.push(`${message.title}/${message.body}/${message.badge}`);
        return message.title;
      },
      async (devices, payloadOf) => {
        calls.push(devices.map((device) => [device.device_id, payloadOf(device)]));
        return devices.map((device) => ({ device_id: device.device_id, outcome: 'delivered', attempts: 1 }));
      },
      'PayloadBuildFailed',
    );
    const results = await send(splitTemplateErrors(batch).renderable);
    expect(built).toEqual(['Bonjour/fr/2', 'Hi/en/2']);
    expect(calls).toEqual([[['a', 'Bonjour'], ['b', 'Hi'], ['d', 'Bonjour']]]);
    expect(results.map((result) => result.device_id).sort()).toEqual(['a', 'b', 'd']);
  });

  it('in one call too, fails only the devices whose content\'s payload cannot be built, unsent', async () => {
    const sent: string[] = [];
    const send = sendEachByContent({ notification_id: 'n', project_id: 'p', title: '', body: '' }, batch, (message) => (message.title === 'Hi' ? undefined : 'ok'), async (devices) => (sent.push(...devices.map((device) => device.device_id)), devices.map((device) => ({ device_id: device.device_id, outcome: 'delivered', attempts: 1 }))), 'PayloadBuildFailed');
    const results = await send(splitTemplateErrors(batch).renderable);
    expect(sent).toEqual(['a', 'd']);
    expect(results.find((result) => result.device_id === 'b')).toEqual({ device_id: 'b', outcome: 'rejected', reason: 'PayloadBuildFailed', attempts: 1 });
    expect(results.find((result) => result.device_id === 'd')?.outcome).toBe('delivered');
  });
});
