import type { IncomingHttpHeaders } from 'node:http2';
import type { Http2ServerRequest, Http2ServerResponse, ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:net';

/** Bodies above this are cut off: the fakes only need to see that a payload is too large. */
export const MAX_BODY_BYTES = 1024 * 1024;

export async function readBody(request: Http2ServerRequest): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer | string>) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size <= MAX_BODY_BYTES) chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

export function sendJson(response: Http2ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

/** The same JSON answer on the core stream API. */
export function respondJson(stream: ServerHttp2Stream, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  stream.respond({ ':status': status, 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text), ...headers });
  stream.end(text);
}

/** Plain header values; pseudo-headers (`:path`, …) are left out. */
export function plainHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith(':') || value === undefined) continue;
    result[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return result;
}

export async function listen(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}
