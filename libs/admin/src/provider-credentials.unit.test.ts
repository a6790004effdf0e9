import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '@herald/errors';
import { createTestApnsKey, createTestServiceAccount } from '@herald/fake-providers';
import {
  describeCredentials,
  formatCredentialsDescription,
  summarizeApns,
  summarizeFcm,
  validateApnsCredential,
  validateFcmServiceAccount,
  type ApnsLabels,
} from './provider-credentials.ts';

const apnsKey = createTestApnsKey();
const account = createTestServiceAccount({ projectId: 'proj-a' }).serviceAccount;
const apnsInput = { keyPem: apnsKey.keyPem, keyId: apnsKey.keyId, teamId: apnsKey.teamId, bundleId: 'com.example.app', sandbox: true };
const encoding = { privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } } as const;
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048, ...encoding });
const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1', ...encoding });

function problems(run: () => unknown): readonly string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).details;
  }
  throw new Error('expected a ValidationError');
}

describe('validateApnsCredential', () => {
  it('accepts an AuthKey .p8 and Apple ids', () => {
    expect(validateApnsCredential(apnsInput)).toEqual(apnsInput);
  });

  it('defaults sandbox to false and drops unknown fields', () => {
    const { sandbox: _, ...rest } = apnsInput;
    expect(validateApnsCredential({ ...rest, extra: 'x' } as never)).toEqual({ ...rest, sandbox: false });
  });

  it('accepts a SEC1 ("EC PRIVATE KEY") P-256 key and bundle ids with hyphens and topic suffixes', () => {
    const sec1 = generateKeyPairSync('ec', { namedCurve: 'prime256v1', privateKeyEncoding: { type: 'sec1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    expect(validateApnsCredential({ ...apnsInput, keyPem: sec1.privateKey, bundleId: 'com.my-company.app.voip' }).bundleId).toBe('com.my-company.app.voip');
  });

  it.each([
    ['an RSA key', rsa.privateKey, 'keyPem must be an EC P-256 (prime256v1) private key, as in an AuthKey .p8 file'],
    ['a P-384 key', p384.privateKey, 'keyPem must be an EC P-256 (prime256v1) private key, as in an AuthKey .p8 file'],
    ['a public key', apnsKey.publicKeyPem, 'keyPem must be an unencrypted PEM private key (an AuthKey .p8 file)'],
    ['a truncated key', apnsKey.keyPem.slice(0, 80), 'keyPem must be an unencrypted PEM private key (an AuthKey .p8 file)'],
    ['a path', '/keys/AuthKey_ABC.p8', 'keyPem must be an unencrypted PEM private key (an AuthKey .p8 file)'],
    ['empty text', '  \n', 'keyPem is required: the AuthKey .p8 private key (PEM)'],
  ])('refuses %s as keyPem', (_, keyPem, message) => {
    expect(problems(() => validateApnsCredential({ ...apnsInput, keyPem }))).toEqual([message]);
  });

  it('refuses an encrypted key', () => {
    const encrypted = generateKeyPairSync('ec', {
      namedCurve: 'prime256v1',
      privateKeyEncoding: { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    expect(problems(() => validateApnsCredential({ ...apnsInput, keyPem: encrypted.privateKey }))).toEqual([
      'keyPem must be an unencrypted PEM private key (an AuthKey .p8 file)',
    ]);
  });

  it('lists every problem at once, in the caller’s words, never echoing the key', () => {
    const labels: ApnsLabels = { keyPem: '--key-file', keyId: '--key-id', teamId: '--team-id', bundleId: '--bundle-id', sandbox: '--sandbox' };
    const found = problems(() => validateApnsCredential({ keyPem: rsa.privateKey, keyId: 'abc123defg', teamId: 'ABCDEFGHIJK', bundleId: 'app', sandbox: 'yes' }, labels));
    expect(found).toEqual([
      '--key-file must be an EC P-256 (prime256v1) private key, as in an AuthKey .p8 file',
      "--key-id must be 10 upper-case letters or digits (Apple's Key ID)",
      "--team-id must be 10 upper-case letters or digits (Apple's Team ID)",
      '--bundle-id must be a reverse-DNS bundle id of letters, digits, hyphens and periods (e.g. com.example.app)',
      '--sandbox must be a boolean',
    ]);
    expect(found.join('\n')).not.toContain('PRIVATE KEY');
  });

  it('names missing fields', () => {
    expect(problems(() => validateApnsCredential({}))).toEqual([
      'keyPem is required: the AuthKey .p8 private key (PEM)',
      "keyId must be 10 upper-case letters or digits (Apple's Key ID)",
      "teamId must be 10 upper-case letters or digits (Apple's Team ID)",
      "bundleId is required: the app's bundle id (apns-topic)",
    ]);
  });

  it.each(['com..example', '.com.example', 'com.example.', 'com example.app', 'com.exämple.app', `com.${'a'.repeat(260)}`])('refuses bundle id %j', (bundleId) => {
    expect(problems(() => validateApnsCredential({ ...apnsInput, bundleId }))).toHaveLength(1);
  });
});

describe('validateFcmServiceAccount', () => {
  it('accepts a service-account key file and keeps every field', () => {
    expect(validateFcmServiceAccount(account)).toEqual({ serviceAccount: account });
  });

  it('lists every problem at once with the label', () => {
    const found = problems(() => validateFcmServiceAccount({ type: 'authorized_user', client_email: 'nobody', private_key: apnsKey.keyPem }, '--service-account'));
    expect(found).toEqual([
      '--service-account type must be "service_account"',
      '--service-account project_id is required and must be a non-empty string',
      '--service-account client_email must be an email address',
      '--service-account private_key must be an RSA private key',
    ]);
    expect(found.join('\n')).not.toContain('PRIVATE KEY');
  });

  it.each([
    ['a private key that is not PEM', { ...account, private_key: 'not a key' }, 'service account private_key must be an unencrypted PEM private key'],
    ['a missing private key', { ...account, private_key: undefined }, 'service account private_key is required and must be a non-empty string'],
    ['an empty client_email', { ...account, client_email: '' }, 'service account client_email is required and must be a non-empty string'],
  ])('refuses %s', (_, json, message) => {
    expect(problems(() => validateFcmServiceAccount(json))).toEqual([message]);
  });

  it.each([null, [], 'text', 42])('refuses %j: not an object', (json) => {
    expect(problems(() => validateFcmServiceAccount(json))).toEqual(['service account must be a JSON object (a Google service-account key file)']);
  });
});

describe('describeCredentials', () => {
  const setAt = new Date('2025-01-02T03:04:05.000Z');
  const apns = validateApnsCredential(apnsInput);
  const fcm = validateFcmServiceAccount(account);

  it('summarises identifiers only', () => {
    const description = describeCredentials({ apns: { summary: summarizeApns(apns), set_at: setAt }, fcm: { summary: summarizeFcm(fcm), set_at: setAt } });
    expect(description).toEqual({
      apns: { keyId: apns.keyId, teamId: apns.teamId, bundleId: 'com.example.app', sandbox: true, set_at: setAt },
      fcm: { project_id: 'proj-a', client_email: account.client_email, set_at: setAt },
    });
    expect(JSON.stringify(description)).not.toMatch(/PRIVATE KEY|private_key|keyPem/);
  });

  it('copies nothing but the summary fields, whatever a stored record holds', () => {
    const polluted = { ...summarizeApns(apns), keyPem: apns.keyPem } as ReturnType<typeof summarizeApns>;
    const sneaky = { ...summarizeFcm(fcm), private_key: account.private_key } as ReturnType<typeof summarizeFcm>;
    const description = describeCredentials({ apns: { summary: polluted, set_at: setAt }, fcm: { summary: sneaky, set_at: setAt } });
    expect(JSON.stringify(description)).not.toMatch(/PRIVATE KEY|private_key|keyPem/);
  });

  it('describes nothing configured as empty', () => {
    expect(describeCredentials({})).toEqual({});
  });

  it('formats one line per provider', () => {
    expect(formatCredentialsDescription('p1', {})).toEqual(['project p1', '  apns: not configured', '  fcm:  not configured', '  hms:  not configured']);
    const lines = formatCredentialsDescription('p1', describeCredentials({ apns: { summary: summarizeApns({ ...apns, sandbox: false }), set_at: setAt }, fcm: { summary: summarizeFcm(fcm), set_at: setAt } }));
    expect(lines).toEqual([
      'project p1',
      `  apns: key ${apns.keyId}, team ${apns.teamId}, topic com.example.app, production; set 2025-01-02T03:04:05.000Z`,
      `  fcm:  project proj-a, ${account.client_email}; set 2025-01-02T03:04:05.000Z`,
      '  hms:  not configured',
    ]);
    const hms = describeCredentials({ hms: { summary: { app_id: '101234567', client_id: '101234568' }, set_at: setAt } });
    expect(formatCredentialsDescription('p1', hms)[3]).toBe('  hms:  app 101234567, client 101234568; set 2025-01-02T03:04:05.000Z');
  });
});
