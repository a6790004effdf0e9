import type { TokenRuleBase } from './rules.ts';

/** Push Kit's limit on a message without its tokens (as libs/push-payloads counts it). */
export const HMS_MAX_PAYLOAD_BYTES = 4096;
export const HMS_MAX_TOKENS = 1000;

/**
 * An injected answer for requests carrying a token with the rule's prefix:
 * `illegal` lists the token in a partial success (80100000), or 80300007
 * when every token is; the others answer the whole request.
 */
export interface HmsRule extends TokenRuleBase {
  answer: 'illegal' | 'token-expired' | 'internal-error' | 429 | 500 | 503;
}

/** An app the fake knows: its OAuth client. */
export interface HmsAppRegistration {
  appId: string;
  clientId: string;
  clientSecret: string;
}

/** Push Kit's answer body. */
export interface HmsAnswer {
  status: number;
  code: string;
  msg: string;
}

export const HMS_ANSWERS = {
  success: { status: 200, code: '80000000', msg: 'Success' },
  badParameters: (msg: string): HmsAnswer => ({ status: 400, code: '80100001', msg }),
  badStructure: (msg: string): HmsAnswer => ({ status: 400, code: '80100003', msg }),
  authFailed: { status: 401, code: '80200001', msg: 'Oauth authentication error' },
  tokenExpired: { status: 401, code: '80200003', msg: 'Oauth Token expired.' },
  noPermission: { status: 403, code: '80300002', msg: 'There is no permission to send a message to a specified device.' },
  allInvalid: { status: 400, code: '80300007', msg: 'All tokens are invalid' },
  tooLarge: { status: 413, code: '80300008', msg: 'The message body size exceeds the default value.' },
  internal: { status: 500, code: '81000001', msg: 'System internal error' },
} as const satisfies Record<string, HmsAnswer | ((msg: string) => HmsAnswer)>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What Push Kit refuses in a messages:send body, or the tokens and the message without them. */
export function checkHmsBody(json: unknown): { ok: true; tokens: string[]; message: Record<string, unknown> } | { ok: false; answer: HmsAnswer } {
  if (!isRecord(json) || !isRecord(json.message)) return { ok: false, answer: HMS_ANSWERS.badStructure('message is required') };
  if (json.validate_only !== undefined && typeof json.validate_only !== 'boolean') return { ok: false, answer: HMS_ANSWERS.badParameters('validate_only must be a boolean') };
  const { token, ...message } = json.message;
  if (!Array.isArray(token) || token.length === 0 || !token.every((item) => typeof item === 'string' && item !== '')) {
    return { ok: false, answer: HMS_ANSWERS.badParameters('message.token must be a non-empty array of tokens') };
  }
  if (token.length > HMS_MAX_TOKENS) return { ok: false, answer: { status: 400, code: '80300010', msg: 'The number of tokens exceeds 1000' } };
  if (message.data !== undefined && typeof message.data !== 'string') return { ok: false, answer: HMS_ANSWERS.badParameters('message.data must be a string') };
  const android = message.android;
  if (android !== undefined && !isRecord(android)) return { ok: false, answer: HMS_ANSWERS.badStructure('message.android must be an object') };
  if (isRecord(android)) {
    if (android.urgency !== undefined && android.urgency !== 'HIGH' && android.urgency !== 'NORMAL') return { ok: false, answer: HMS_ANSWERS.badParameters('android.urgency must be HIGH or NORMAL') };
    if (android.ttl !== undefined && (typeof android.ttl !== 'string' || !/^\d+(\.\d+)?s?$/.test(android.ttl))) return { ok: false, answer: HMS_ANSWERS.badParameters('android.ttl must be a duration like "3600s"') };
    if (android.collapse_key !== undefined && (!Number.isInteger(android.collapse_key) || (android.collapse_key as number) < -1 || (android.collapse_key as number) > 100)) {
      return { ok: false, answer: { status: 400, code: '80100013', msg: 'collapse_key is illegal' } };
    }
    const notification = android.notification;
    if (notification !== undefined) {
      if (!isRecord(notification)) return { ok: false, answer: HMS_ANSWERS.badStructure('android.notification must be an object') };
      if (typeof notification.title !== 'string' || typeof notification.body !== 'string') return { ok: false, answer: HMS_ANSWERS.badParameters('android.notification needs title and body') };
      const click = notification.click_action;
      if (!isRecord(click) || ![1, 2, 3, 4].includes(click.type as number)) return { ok: false, answer: HMS_ANSWERS.badParameters('android.notification.click_action.type is required (1-4)') };
      if (click.type === 1 && typeof click.intent !== 'string' && typeof click.action !== 'string') return { ok: false, answer: HMS_ANSWERS.badParameters('click_action type 1 needs intent or action') };
    }
  }
  if (Buffer.byteLength(JSON.stringify(message)) > HMS_MAX_PAYLOAD_BYTES) return { ok: false, answer: HMS_ANSWERS.tooLarge };
  return { ok: true, tokens: token as string[], message };
}
