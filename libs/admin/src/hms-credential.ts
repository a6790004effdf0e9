import { ValidationError } from '@herald/errors';

/**
 * A project's Huawei Push Kit credential: the app id (the path of
 * `/v1/<app id>/messages:send`) and the OAuth 2.0 client that gets access
 * tokens with client_credentials (AppGallery Connect → the project → Project
 * settings → App information: App ID, Client ID, Client secret).
 */
export interface HmsCredential {
  appId: string;
  clientId: string;
  clientSecret: string;
}

/** What may be shown: the ids, never the secret. */
export interface HmsSummary {
  app_id: string;
  client_id: string;
}

export type HmsLabels = Record<keyof HmsCredential, string>;

const HMS_FIELDS: HmsLabels = { appId: 'appId', clientId: 'clientId', clientSecret: 'clientSecret' };
/** AppGallery Connect's app and client ids are decimal numbers (e.g. 101234567). */
const NUMERIC_ID = /^[0-9]{1,32}$/;
/** Client secrets are 64 hex characters today; any printable ASCII without spaces, 8 to 256, leaves room without taking junk. */
const SECRET = /^[\x21-\x7e]{8,256}$/;

/** Every problem with an HMS credential, each naming the field (as labelled); empty when valid. */
export function hmsCredentialProblems(input: Partial<Record<keyof HmsCredential, unknown>>, labels: HmsLabels = HMS_FIELDS): string[] {
  const problems: string[] = [];
  for (const field of ['appId', 'clientId'] as const) {
    const value = input[field];
    if (typeof value !== 'string' || !NUMERIC_ID.test(value)) problems.push(`${labels[field]} must be the numeric ${field === 'appId' ? 'App ID' : 'Client ID'} from AppGallery Connect (digits only)`);
  }
  const secret = input.clientSecret;
  if (typeof secret !== 'string' || !SECRET.test(secret)) problems.push(`${labels.clientSecret} must be the Client secret from AppGallery Connect: 8 to 256 printable characters without spaces`);
  return problems;
}

/** A valid HMS credential, or a ValidationError listing every problem. */
export function validateHmsCredential(input: Partial<Record<keyof HmsCredential, unknown>>, labels: HmsLabels = HMS_FIELDS): HmsCredential {
  const problems = hmsCredentialProblems(input, labels);
  if (problems.length > 0) throw new ValidationError(problems);
  return { appId: input.appId as string, clientId: input.clientId as string, clientSecret: input.clientSecret as string };
}

export function summarizeHms(credential: HmsCredential): HmsSummary {
  return { app_id: credential.appId, client_id: credential.clientId };
}
