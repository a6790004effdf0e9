import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { addressKey } from './rate-limit-keys.ts';

/**
 * Bounds the connections one client address (IPv6: its /64) holds open: past
 * `perAddress`, a new connection is closed at once, before any byte of it is
 * read. Open connections are what a slow or idle client costs even when it
 * sends no request at all. Behind a proxy every connection comes from the
 * proxy: set the bound to 0 (off) there.
 */
export function limitConnectionsPerAddress(server: Server, perAddress: number): void {
  if (perAddress <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const key = addressKey(socket.remoteAddress ?? '');
    const count = (open.get(key) ?? 0) + 1;
    if (count > perAddress) {
      socket.destroy();
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });
}
