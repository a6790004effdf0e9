import { sign } from 'node:crypto';

/** Signs a compact JWT for tests of the fakes' checks (ES256 as APNs wants, RS256 as Google's token endpoint wants). */
export function signTestJwt(header: Record<string, unknown>, payload: Record<string, unknown>, privateKeyPem: string): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${encode(header)}.${encode(payload)}`;
  const signature =
    header.alg === 'ES256'
      ? sign('sha256', Buffer.from(input), { key: privateKeyPem, dsaEncoding: 'ieee-p1363' })
      : sign('sha256', Buffer.from(input), privateKeyPem);
  return `${input}.${signature.toString('base64url')}`;
}
