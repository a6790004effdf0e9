import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Errors Node's HTTP parser raises before fastify sees a request (a request
 * line or headers over 16 KB, malformed HTTP) still get the `{"errors": [...]}`
 * body every other error has.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy(error);
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const message =
    status === 431
      ? 'the request line and headers must be smaller than 16 KB'
      : status === 408
        ? 'the request (headers and body) did not arrive before its deadline (REQUEST_DEADLINE_MS)'
        : 'the request is not valid HTTP';
  const body = JSON.stringify({ errors: [message] });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
