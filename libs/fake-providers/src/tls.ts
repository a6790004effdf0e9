import { generate } from 'selfsigned';

/** PEM material for a fake server: `ca` is what clients trust, `key`/`cert` what the server presents. */
export interface FakeTls {
  /** The CA certificate. Pass it as `ca`, or write it to a file for `NODE_EXTRA_CA_CERTS`. */
  ca: string;
  key: string;
  cert: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A throwaway CA and a server certificate it signed, valid for `127.0.0.1`
 * and `localhost`. A separate CA (rather than one self-signed leaf) lets one
 * `NODE_EXTRA_CA_CERTS` file cover every fake that shares it, and keeps the
 * server certificate a normal leaf (`cA: false`, `serverAuth`) as real
 * providers present. Generated at run time so nothing secret is committed.
 */
export async function createFakeTls(options: { validDays?: number } = {}): Promise<FakeTls> {
  const notBeforeDate = new Date(Date.now() - DAY_MS);
  const notAfterDate = new Date(Date.now() + (options.validDays ?? 30) * DAY_MS);
  const ca = await generate([{ name: 'commonName', value: 'Herald fake providers CA' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const server = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  return { ca: ca.cert, key: server.private, cert: server.cert };
}
