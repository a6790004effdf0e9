/**
 * Flags every Herald Node process runs with. kafkajs 2.2.4 schedules its
 * request-queue check with a negative delay after a throttle window, which
 * Node ≥ 23 reports as a TimeoutNegativeWarning on every connection (kafkajs
 * issue 1751; Node clamps the delay to 1 ms, as kafkajs intends): noise that
 * hides real warnings, so that one warning class is silenced.
 */
export const NODE_FLAGS: readonly string[] = ['--disable-warning=TimeoutNegativeWarning'];

/**
 * A service's own flags, by entry point (after NODE_FLAGS). docker-compose.yml
 * repeats them in each command (a test holds the two together).
 *
 * The projector's young generation is capped at two semi-spaces of 16 MB.
 * V8 grows it to two of 64 MB (Node is built without pointer compression,
 * which doubles V8's 32 MB), 128 MB resident in a process whose live heap is
 * 30–60 MB: at 200,000 devices the projector peaked at 481–487 MB with
 * V8's default and 371–384 MB with the cap, its CPU per push unchanged
 * within the runs' spread (5.4–5.9 µs against 5.9–6.3).
 *
 * Delivery's is capped at two of 32 MB. At 100,000 devices (one run after
 * the other, with the lean AsyncResource bind) its peak was 499–531 MB
 * with the cap against 563–630 without, for 71.4–73.3 µs of CPU per push
 * against 67.2–67.7; the cap at 16 MB saved no more (512–531 MB) and cost
 * 74.5–76.1 µs (services/delivery/README.md, Memory).
 */
export const SERVICE_NODE_FLAGS: Readonly<Record<string, readonly string[]>> = {
  'services/projector/src/main.ts': ['--max-semi-space-size=16'],
  'services/delivery/src/main.ts': ['--max-semi-space-size=32'],
};

/** The Node flags to run an entry point (relative to the repository root) with. */
export function nodeFlagsFor(entry: string): readonly string[] {
  return [...NODE_FLAGS, ...(SERVICE_NODE_FLAGS[entry] ?? [])];
}
