import type { Http2SecureServer } from 'node:http2';
import type { Socket } from 'node:net';
import { listen } from './http.ts';
import type { Recorder } from './recorder.ts';
import type { RuleBook, TokenRuleBase } from './rules.ts';

/**
 * What both fakes share: listening on loopback, closing promptly (clients
 * keep HTTP/2 sessions open for reuse, so open sockets are ended), and the
 * test controls over recorded deliveries, rules and latency.
 */
export async function fakeServerBase<D, R extends TokenRuleBase>(
  server: Http2SecureServer,
  port: number,
  parts: { ca: string; recorder: Recorder<D>; rules: RuleBook<R>; setLatency: (ms: number) => void },
) {
  const sockets = new Set<Socket>();
  let connections = 0;
  server.on('secureConnection', (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const bound = await listen(server, port);
  const { recorder, rules } = parts;
  return {
    url: `https://127.0.0.1:${bound}`,
    port: bound,
    ca: parts.ca,
    get deliveries() {
      return recorder.deliveries;
    },
    get stats() {
      return recorder.stats;
    },
    /** TLS connections accepted since the fake started (a client that reuses its connection adds none per request). */
    get connections() {
      return connections;
    },
    setRules(next: readonly R[]) {
      rules.replace(next);
    },
    setLatency: parts.setLatency,
    waitForDeliveries: (count: number, timeoutMs?: number) => recorder.waitForDeliveries(count, timeoutMs),
    onDelivery: (listener: (delivery: D) => void) => recorder.onDelivery(listener),
    reset() {
      recorder.reset();
      rules.resetCounts();
    },
    /** Ends every open connection, as a server restarting or shedding load would; resolves once they are closed. */
    async dropConnections() {
      const open = [...sockets].map((socket) => new Promise<void>((resolve) => socket.once('close', () => resolve())));
      for (const socket of sockets) socket.destroy();
      await Promise.all(open);
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
