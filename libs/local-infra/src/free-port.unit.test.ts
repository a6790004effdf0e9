import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, kafkaPortsFree } from './free-port.ts';

const listen = (port: number) =>
  new Promise<void>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });

describe('freePort', () => {
  it('hands out ports a service can then listen on, below the range outgoing connections take their source ports from', async () => {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(low!);
      await listen(port);
    }
  });

  it('never hands out the same port twice in one process, though each is free again once picked', async () => {
    // 300 random picks from the ~12,000 ports below the range would repeat one 97 % of the time without the memory.
    const ports = await Promise.all(Array.from({ length: 300 }, () => freePort()));
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('picks a run of free ports for a three-broker cluster (broker n on kafkaPort + 2(n-1), its controller on kafkaControllerPort + 2(n-1))', async () => {
    const { kafkaPort, kafkaControllerPort } = await kafkaPortsFree(3);
    expect(kafkaControllerPort).toBe(kafkaPort + 1);
    for (let port = kafkaPort; port < kafkaPort + 6; port += 1) await listen(port);
    // None of the run is handed out again.
    const more = await Promise.all(Array.from({ length: 100 }, () => freePort()));
    expect(more.filter((port) => port >= kafkaPort && port < kafkaPort + 6)).toEqual([]);
  });
});
