import { describe, expect, it } from 'vitest';
import { buildHmsMessage, buildHmsSendBody, HMS_MAX_TOKENS, hmsPayloadBytes, hmsTokenProblem } from './hms-payload.ts';

const base = { notification_id: '0190b6a0-0000-7000-8000-000000000001', project_id: 'proj-1', title: 'Sale', body: 'Ends tonight' };
const TOKEN = 'ANPpqLe8aTPl9tsB2Iu_820GmUQ-prH-dzPV-orbkm9yym2bitxd3emgxglrkVJW8hbTkusjHCu2_RW-AdnqqSbHevBQYwhjqOBzCdcu_Zrqfzuowi7Sxp4c2r_ztTORVQ';

describe('buildHmsMessage', () => {
  it('sends a notification that opens the app, with the ids in the data string', () => {
    const message = buildHmsMessage(base);
    expect(message.android).toEqual({ notification: { title: 'Sale', body: 'Ends tonight', click_action: { type: 3 } } });
    expect(JSON.parse(message.data)).toEqual({ notification_id: base.notification_id, project_id: 'proj-1' });
  });

  it('maps every push option to its Push Kit field', () => {
    const message = buildHmsMessage({
      ...base,
      data: { order: '42' },
      link_to: 'shop://sale',
      sound: 'chime',
      ttl: 3600,
      priority: 'high',
      collapse_id: '7',
      image: 'https://cdn.example.com/a.png',
      category: 'OPEN_SALE',
      thread_id: 'deals',
    });
    expect(message.android).toEqual({
      urgency: 'HIGH',
      ttl: '3600s',
      collapse_key: 7,
      notification: {
        title: 'Sale',
        body: 'Ends tonight',
        click_action: { type: 1, action: 'OPEN_SALE' },
        image: 'https://cdn.example.com/a.png',
        tag: '7',
        group: 'deals',
        sound: 'chime',
        default_sound: false,
      },
    });
    expect(JSON.parse(message.data)).toEqual({ order: '42', notification_id: base.notification_id, project_id: 'proj-1', link_to: 'shop://sale' });
  });

  it('collapses by tag only when collapse_id is not an integer Push Kit takes, and caps ttl at 15 days', () => {
    const message = buildHmsMessage({ ...base, collapse_id: 'score', ttl: 30 * 86_400, priority: 'normal', sound: 'default' });
    expect(message.android.collapse_key).toBeUndefined();
    expect(message.android.notification?.tag).toBe('score');
    expect(message.android.notification?.default_sound).toBe(true);
    expect(message.android.ttl).toBe('1296000s');
    expect(message.android.urgency).toBe('NORMAL');
    expect(buildHmsMessage({ ...base, collapse_id: '101' }).android.collapse_key).toBeUndefined();
    expect(buildHmsMessage({ ...base, collapse_id: '-1' }).android.collapse_key).toBe(-1);
  });

  it('sends a silent push as a data message (no notification)', () => {
    const message = buildHmsMessage({ ...base, title: '', body: '', content_available: true });
    expect(message.android).toEqual({});
    expect(JSON.parse(message.data).notification_id).toBe(base.notification_id);
  });

  it('a custom data key cannot replace Herald’s ids', () => {
    const message = buildHmsMessage({ ...base, data: { notification_id: 'forged' } });
    expect(JSON.parse(message.data).notification_id).toBe(base.notification_id);
  });
});

describe('buildHmsSendBody', () => {
  it('puts up to 1,000 tokens on the message, never validate_only', () => {
    const body = buildHmsSendBody(buildHmsMessage(base), [TOKEN]);
    expect(body.validate_only).toBe(false);
    expect(body.message.token).toEqual([TOKEN]);
    expect(body.message.android.notification?.title).toBe('Sale');
    expect(() => buildHmsSendBody(buildHmsMessage(base), [])).toThrow(RangeError);
    expect(() => buildHmsSendBody(buildHmsMessage(base), Array.from({ length: HMS_MAX_TOKENS + 1 }, () => TOKEN))).toThrow(RangeError);
  });

  it('counts the payload without tokens', () => {
    const message = buildHmsMessage(base);
    expect(hmsPayloadBytes(message)).toBe(Buffer.byteLength(JSON.stringify(message)));
  });
});

describe('hmsTokenProblem', () => {
  it('accepts a token of the documented form and names the field otherwise', () => {
    expect(hmsTokenProblem(TOKEN)).toBeUndefined();
    expect(hmsTokenProblem('0866.abc:DEF_ghi-' + 'x'.repeat(40))).toBeUndefined();
    expect(hmsTokenProblem('short')).toMatch(/^token must be an HMS push token of 32 to 512/);
    expect(hmsTokenProblem('x'.repeat(513))).toMatch(/it has 513/);
    expect(hmsTokenProblem(`${TOKEN} `)).toMatch(/^token must be an HMS push token: letters/);
    expect(hmsTokenProblem(`${TOKEN}/x`)).toBeDefined();
  });
});
