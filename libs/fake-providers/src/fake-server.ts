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
  server.on('secureConnection', (socket: Socket) => {
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
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
