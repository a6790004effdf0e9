import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { randomInt } from 'node:crypto';

/** Lowest port handed out: clear of the well-known and registered ports local services default to. */
const LOWEST_PORT = 20_000;
const ATTEMPTS = 50;

/**
 * Ports this process has handed out. A port is free again once its pick's
 * probe closes, so without this two picks before either service listens (the
 * API's port and the projector's metrics port of one harness: CI saw the API
 * exit with EADDRINUSE so) could be the same port.
 */
const handedOut = new Set<number>();

/**
 * A port nobody listens on right now, for test instances that must not clash.
 *
 * Picked below the kernel's ephemeral range when it can: a port from that
 * range (what `listen(0)` returns) is also where outgoing connections get
 * their source port, so between the pick and a service's own `listen` a
 * Kafka or store client could take it (CI once saw EADDRINUSE on a metrics
 * port so). Below the range only another listener can, and the pick is random
 * so that concurrent test files rarely try the same one.
 */
export async function freePort(): Promise<number> {
  const ephemeralStart = await ephemeralPortsStart();
  if (ephemeralStart !== undefined && ephemeralStart > LOWEST_PORT + ATTEMPTS) {
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const port = randomInt(LOWEST_PORT, ephemeralStart);
      if (handedOut.has(port)) continue;
      handedOut.add(port);
      if ((await listenOnce(port)) !== undefined) return port;
    }
  }
  const any = await listenOnce(0);
  if (any === undefined) throw new Error('no free port on 127.0.0.1');
  handedOut.add(any);
  return any;
}

/** The lowest port of Linux's range for outgoing connections' source ports; undefined elsewhere. */
async function ephemeralPortsStart(): Promise<number | undefined> {
  const text = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => undefined);
  const low = Number((text ?? '').trim().split(/\s+/)[0]);
  return Number.isInteger(low) && low > 0 ? low : undefined;
}

/** Listens on 127.0.0.1:`port` and closes again; the port it got, or undefined when it was taken. */
function listenOnce(port: number): Promise<number | undefined> {
  return new Promise((resolvePort) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolvePort(undefined));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address !== null ? address.port : undefined));
    });
  });
}

/**
 * Ports for a local Kafka of `brokers` brokers: broker n listens on
 * kafkaPort + 2(n-1) and its controller on kafkaControllerPort + 2(n-1)
 * (herald-infra's derivation), so a run of 2 × brokers consecutive ports must
 * be free. Picks a free port and checks the run above it; tries again otherwise.
 */
export async function kafkaPortsFree(brokers = 1): Promise<{ kafkaPort: number; kafkaControllerPort: number }> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const base = await freePort();
    const rest = Array.from({ length: 2 * brokers - 1 }, (_, i) => base + 1 + i);
    if (rest.some((port) => port > 65_535 || handedOut.has(port))) continue;
    let free = true;
    for (const port of rest) {
      handedOut.add(port);
      if ((await listenOnce(port)) === undefined) {
        free = false;
        break;
      }
    }
    if (free) return { kafkaPort: base, kafkaControllerPort: base + 1 };
  }
  throw new Error(`no run of ${2 * brokers} free ports on 127.0.0.1`);
}
