// `npm run bench:webpush-crypto -- [--json]`: what one Web Push costs in CPU
// on this machine, measured alone (no network): the per-message encryption
// web-push does for every subscription (a fresh ECDH key pair, ECDH with the
// subscription's key, two HKDFs, AES-128-GCM over a ~250-byte plaintext),
// the ES256 VAPID signature web-push's sendNotification would add to every
// message (Herald signs once per push service origin and key instead:
// services/delivery/src/providers/vapid-cache.ts), and the fake push
// service's decryption (what the local fake spends per message). CPU time
// of this process, so the figures are per core.
import { createECDH, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import webpush from 'web-push';
import { generateVapidKey } from '@herald/admin';
import { buildWebPushPayload, webPushPlaintext } from '@herald/push-payloads';
import { emitJson } from './runs.ts';

const require = createRequire(import.meta.url);
const ece = require('http_ece') as { decrypt(body: Buffer, params: Record<string, unknown>): Buffer };

const ROUNDS = 3_000;
const browser = createECDH('prime256v1');
browser.generateKeys();
const auth = randomBytes(16);
const subscription = { endpoint: 'https://push.example.net/wpush/v2/abc', keys: { p256dh: browser.getPublicKey('base64url'), auth: auth.toString('base64url') } };
const key = generateVapidKey();
const plaintext = webPushPlaintext(
  buildWebPushPayload({ notification_id: '0190b6a0-0000-7000-8000-000000000001', project_id: 'project-1', title: 'Flash sale', body: 'Everything 20% off until midnight', link_to: 'https://shop.example/sale', data: { campaign: 'winter' } }),
);

function cpuMicrosPer(work: () => unknown): number {
  for (let i = 0; i < 200; i++) work();
  const start = process.cpuUsage();
  for (let i = 0; i < ROUNDS; i++) work();
  const used = process.cpuUsage(start);
  return Math.round(((used.user + used.system) / ROUNDS) * 10) / 10;
}

const authorization = webpush.getVapidHeaders('https://push.example.net', 'mailto:push@example.com', key.public_key, key.private_key, 'aes128gcm').Authorization;
const encrypt = () => webpush.generateRequestDetails(subscription, plaintext, { contentEncoding: 'aes128gcm', TTL: 3600, headers: { Authorization: authorization } });
const sign = () => webpush.getVapidHeaders('https://push.example.net', 'mailto:push@example.com', key.public_key, key.private_key, 'aes128gcm');
const body = encrypt().body;
const decrypt = () => ece.decrypt(body, { version: 'aes128gcm', privateKey: browser, authSecret: auth.toString('base64url') });

const encryptUs = cpuMicrosPer(encrypt);
const signUs = cpuMicrosPer(sign);
const decryptUs = cpuMicrosPer(decrypt);
const figures = {
  rounds: ROUNDS,
  plaintext_bytes: Buffer.byteLength(plaintext),
  encrypt_us_per_push: encryptUs,
  vapid_sign_us_per_push_uncached: signUs,
  fake_decrypt_us_per_push: decryptUs,
  pushes_per_core_second_encrypt_only: Math.round(1e6 / encryptUs),
  pushes_per_core_second_if_signed_per_push: Math.round(1e6 / (encryptUs + signUs)),
};
if (process.argv.includes('--json')) emitJson('webpush-crypto', figures);
else {
  process.stdout.write(
    `plaintext ${figures.plaintext_bytes} bytes, ${ROUNDS} rounds, CPU per push:\n` +
      `  encrypt (web-push, aes128gcm)   ${encryptUs} µs  → ${figures.pushes_per_core_second_encrypt_only} pushes/s per core\n` +
      `  VAPID ES256 signature           ${signUs} µs  (Herald caches it per origin and key; signed per push: ${figures.pushes_per_core_second_if_signed_per_push} pushes/s per core)\n` +
      `  fake push service decryption    ${decryptUs} µs\n`,
  );
}
