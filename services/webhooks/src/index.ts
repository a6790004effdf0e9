export { runWebhooks, type RunningWebhooks, type WebhooksDeps } from './run-webhooks.ts';
