import { request as httpRequest } from 'node:http';
import { lookup } from 'node:dns/promises';
import { connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Duplex } from 'node:stream';
import { classifyAddress, ipLiteral } from '@herald/address-policy';

/** Host name → addresses (every A/AAAA answer). */
export type Resolver = (hostname: string) => Promise<string[]>;
/** Opens the connection to an address already checked; `servername` is the URL's host (TLS SNI and certificate check). */
export type Connector = (target: { address: string; port: number; tls: boolean; servername: string }) => Duplex;

export const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export const systemConnector: Connector = ({ address, port, tls, servername }) =>
  // The certificate is checked against the URL's host, not the address connected to.
  tls ? tlsConnect({ host: address, port, servername, ALPNProtocols: ['http/1.1'] }) : netConnect({ host: address, port });

export interface OutboundOptions {
  resolver: Resolver;
  connector: Connector;
  /** Local mode: http:// and loopback addresses are allowed (never private or link-local ones). */
  allowLoopback: boolean;
  /** Whole request, from resolution to the last response byte. */
  timeoutMs: number;
  /** Response bytes read at most (the rest is dropped: only the status matters). */
  maxResponseBytes: number;
}

/**
 * `error` is what the project sees (the webhook's `last_failure`, its dead
 * letters): it never names an address a host resolved to, so a webhook is
 * no oracle for what names resolve to inside the network. `detail` says
 * which address and range refused it, for the operator's log only.
 */
export type PostResult = { ok: true; status: number } | { ok: false; status?: number; error: string; refused?: boolean; detail?: string };

const IPV4_ADDRESS = /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g;
const IPV6_ADDRESS = /\[?(?<![\w:])(?:[0-9a-f]{0,4}:){2,7}[0-9a-f.]*\]?(?::\d+)?/gi;

/** An error message with every IP address in it (a connection error names the one it tried) replaced. */
export function withoutAddresses(message: string): string {
  return message.replace(IPV6_ADDRESS, '<address>').replace(IPV4_ADDRESS, '<address>');
}

/** Why a webhook URL may not be called at all (before any lookup), or undefined. */
export function urlProblem(url: URL, allowLoopback: boolean): string | undefined {
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowLoopback)) return 'only https URLs are called (http only to loopback in local mode)';
  if (url.username !== '' || url.password !== '') return 'URLs with credentials are refused';
  return undefined;
}

/**
 * POSTs `body` to `url` without letting the URL reach inside the network:
 * the host is resolved first, every address it resolves to must be public
 * (one private answer refuses the URL: no DNS-rebinding coin toss), the
 * connection goes to that checked address (no second resolution), TLS checks
 * the certificate against the URL's host, redirects are failures (never
 * followed), and time and response size are bounded. http over a connection
 * the connector opened (TLS or not) is node's own client.
 */
export async function postWebhook(target: string, body: string, headers: Record<string, string>, options: OutboundOptions): Promise<PostResult> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { ok: false, error: 'the URL does not parse', refused: true };
  }
  const problem = urlProblem(url, options.allowLoopback);
  if (problem !== undefined) return { ok: false, error: problem, refused: true };
  const deadline = AbortSignal.timeout(options.timeoutMs);
  let addresses: string[];
  const literal = ipLiteral(url.hostname);
  try {
    addresses = literal === undefined ? await Promise.race([options.resolver(url.hostname), aborted(deadline)]) : [literal];
  } catch (error) {
    return { ok: false, error: `could not resolve ${url.hostname}: ${withoutAddresses((error as Error).message)}` };
  }
  if (addresses.length === 0) return { ok: false, error: `${url.hostname} resolves to no address` };
  for (const address of addresses) {
    const verdict = classifyAddress(address, options.allowLoopback);
    if (!verdict.allowed) {
      return { ok: false, error: `${url.hostname} resolves to an address webhooks may not call (only public unicast addresses are): refused`, refused: true, detail: `${address} (${verdict.range})` };
    }
  }
  const tls = url.protocol === 'https:';
  const port = url.port === '' ? (tls ? 443 : 80) : Number(url.port);
  const address = addresses[0]!;
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      deadline.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const request = httpRequest(
      {
        method: 'POST',
        path: `${url.pathname}${url.search}`,
        headers: { ...headers, host: url.host, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        // No agent: node then takes the connection from createConnection (no pooling, nothing resolved again).
        createConnection: () => options.connector({ address, port, tls, servername: url.hostname }),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > options.maxResponseBytes) response.destroy();
        });
        const done = () => {
          request.destroy();
          if (status >= 200 && status < 300) finish({ ok: true, status });
          else if (status >= 300 && status < 400) finish({ ok: false, status, error: `answered ${status} (redirects are not followed)` });
          else finish({ ok: false, status, error: `answered ${status}` });
        };
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    const onAbort = () => {
      request.destroy();
      finish({ ok: false, error: `no answer within ${options.timeoutMs} ms` });
    };
    if (deadline.aborted) onAbort();
    else deadline.addEventListener('abort', onAbort);
    request.on('error', (error) => finish({ ok: false, error: withoutAddresses(error.message) }));
    request.end(body);
  });
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('timed out')), { once: true }));
}
