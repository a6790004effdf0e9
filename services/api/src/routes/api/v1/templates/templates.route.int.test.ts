import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInjectHarness, type InjectHarness, type InjectedResponse } from '@herald/testing';
import { buildApp } from '../../../../build-app.ts';

let harness: InjectHarness;
beforeAll(async () => {
  harness = await startInjectHarness('templates-route', buildApp);
});
afterAll(async () => {
  await harness?.close();
});

/** PUT is not among the harness's methods. */
async function put(path: string, key: string, body: unknown): Promise<InjectedResponse> {
  const response = await harness.app.inject({ method: 'PUT', url: path, headers: { authorization: `Bearer ${key}` }, payload: body as Record<string, unknown> });
  return { status: response.statusCode, body: JSON.parse(response.body) as Record<string, unknown> };
}

const welcome = {
  default: { title: 'Hi {{ device.metadata.first_name | default: "there" }}', body: 'Your code is {{ code }}' },
  fr: { title: 'Bonjour {{ device.metadata.first_name | default: "à vous" }}', body: 'Votre code : {{ code }}' },
};

describe('template routes', () => {
  it('saves immutable versions: create is version 1, PUT makes the next, every version stays readable', async () => {
    const project = await harness.createProject('templates-versions');
    const created = await harness.request('POST', '/api/v1/templates', { key: project.api_key, body: { name: 'welcome', content: welcome } });
    expect(created.status).toBe(201);
    const first = created.body?.data as { id: string; name: string; version: number; content: unknown };
    expect(first).toMatchObject({ name: 'welcome', version: 1, content: welcome });

    const changed = { ...welcome, default: { ...welcome.default, body: 'Code: {{ code }}' } };
    const second = await put(`/api/v1/templates/${first.id}`, project.api_key, { content: changed });
    expect(second).toMatchObject({ status: 200, body: { data: { id: first.id, version: 2, content: changed } } });

    expect(await harness.request('GET', `/api/v1/templates/${first.id}`, { key: project.api_key })).toMatchObject({ status: 200, body: { data: { version: 2 } } });
    expect(await harness.request('GET', `/api/v1/templates/${first.id}/versions/1`, { key: project.api_key })).toMatchObject({ status: 200, body: { data: { version: 1, content: welcome } } });
    expect((await harness.request('GET', `/api/v1/templates/${first.id}/versions/3`, { key: project.api_key })).status).toBe(404);
    const versions = await harness.request('GET', `/api/v1/templates/${first.id}/versions`, { key: project.api_key });
    expect((versions.body?.data as Array<{ version: number }>).map((item) => item.version)).toEqual([2, 1]);
    const list = await harness.request('GET', '/api/v1/templates', { key: project.api_key });
    expect(list.body).toMatchObject({ data: [{ id: first.id, name: 'welcome', latest_version: 2 }], pagination: { count: 1 } });

    // A second template of the same name is a conflict; PUT is how it changes.
    expect(await harness.request('POST', '/api/v1/templates', { key: project.api_key, body: { name: 'welcome', content: welcome } })).toMatchObject({ status: 409 });

    // Deleted: gone from reads; made again, it numbers on, so welcome@1 never names two contents.
    expect((await harness.request('DELETE', `/api/v1/templates/${first.id}`, { key: project.api_key })).status).toBe(204);
    expect((await harness.request('GET', `/api/v1/templates/${first.id}`, { key: project.api_key })).status).toBe(404);
    expect((await harness.request('DELETE', `/api/v1/templates/${first.id}`, { key: project.api_key })).status).toBe(404);
    expect((await put(`/api/v1/templates/${first.id}`, project.api_key, { content: welcome })).status).toBe(404);
    const again = await harness.request('POST', '/api/v1/templates', { key: project.api_key, body: { name: 'welcome', content: welcome } });
    expect(again).toMatchObject({ status: 201, body: { data: { id: first.id, version: 3 } } });
    expect((await harness.request('GET', `/api/v1/templates/${first.id}/versions/1`, { key: project.api_key })).status).toBe(404);
  });

  it('answers 422 naming locale, field and line for a bad template, and saves nothing', async () => {
    const project = await harness.createProject('templates-bad');
    const bad = await harness.request('POST', '/api/v1/templates', {
      key: project.api_key,
      body: { name: 'bad', content: { default: { title: 'ok', body: 'ok' }, 'fr-CA': { title: 'Salut', body: 'ligne 1\n{{ name | nosuch }}' }, de: { title: '{% include "x" %}', body: 'b' } } },
    });
    expect(bad).toEqual({
      status: 422,
      body: { errors: ['content.fr-CA.body line 2: undefined filter: nosuch', expect.stringMatching(/^content\.de\.title line 1: the include tag is not available/)] },
    });
    expect(await harness.request('POST', '/api/v1/templates', { key: project.api_key, body: { name: 'nodefault', content: { fr: { title: 't', body: 'b' } } } })).toEqual({
      status: 422,
      body: { errors: ['content.default.*: every template needs a `default` locale (what devices of other languages get)'] },
    });
    // Sample values the check cannot make up are the client's to give.
    const loop = { default: { title: 'Items: {% for item in items %}{{ item.name }} {% endfor %}', body: 'b' } };
    expect((await harness.request('POST', '/api/v1/templates', { key: project.api_key, body: { name: 'loop', content: loop } })).status).toBe(422);
    expect((await harness.request('POST', '/api/v1/templates', { key: project.api_key, body: { name: 'loop', content: loop, samples: { variables: { items: [{ name: 'a' }] } } } })).status).toBe(201);
    expect((await harness.request('GET', '/api/v1/templates', { key: project.api_key })).body).toMatchObject({ pagination: { count: 1 } });
  });

  it('refuses malformed bodies with 400 naming the field, and strangers with 401', async () => {
    const project = await harness.createProject('templates-input');
    expect(await harness.request('POST', '/api/v1/templates', { key: project.api_key, body: { name: 'x' } })).toEqual({ status: 400, body: { errors: ['content is required'] } });
    expect((await harness.request('POST', '/api/v1/templates', { key: project.api_key, body: { name: 'a@b', content: welcome } })).status).toBe(400);
    expect((await harness.request('POST', '/api/v1/templates', { key: project.api_key, body: { name: 'x', content: { default: { title: 't' } } } })).status).toBe(400);
    expect((await harness.request('POST', '/api/v1/templates', { body: { name: 'x', content: welcome } })).status).toBe(401);
    expect((await harness.request('GET', '/api/v1/templates')).status).toBe(401);
  });

  it("never shows or changes another project's template", async () => {
    const owner = await harness.createProject('templates-owner');
    const stranger = await harness.createProject('templates-stranger');
    const created = await harness.request('POST', '/api/v1/templates', { key: owner.api_key, body: { name: 'private', content: welcome } });
    const id = (created.body?.data as { id: string }).id;
    expect((await harness.request('GET', `/api/v1/templates/${id}`, { key: stranger.api_key })).status).toBe(404);
    expect((await harness.request('GET', `/api/v1/templates/${id}/versions/1`, { key: stranger.api_key })).status).toBe(404);
    expect((await put(`/api/v1/templates/${id}`, stranger.api_key, { content: welcome })).status).toBe(404);
    expect((await harness.request('DELETE', `/api/v1/templates/${id}`, { key: stranger.api_key })).status).toBe(404);
    expect((await harness.request('GET', '/api/v1/templates', { key: stranger.api_key })).body).toMatchObject({ data: [] });
    // The same name in another project is another template.
    const theirs = await harness.request('POST', '/api/v1/templates', { key: stranger.api_key, body: { name: 'private', content: welcome } });
    expect(theirs.status).toBe(201);
    expect((theirs.body?.data as { id: string }).id).not.toBe(id);
  });
});
