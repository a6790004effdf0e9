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
 * Delivery's is capped at two of 32 MB, and its old generation may grow to
 * twice what the last full collection kept before the next one
 * (`--heap-growing-percent=100`; V8 otherwise lets it grow up to four
 * times when collections are quick). Together with SERVICE_ENV's malloc
 * setting, at 100,000 devices (one run after the other):
 * peak 377–380 MB for 78.7–80.4 µs of CPU per push, against 533–539 MB and
 * 73.0–73.5 µs with the semi-space cap alone and 563–630 MB and 67.2–67.7
 * µs with neither (docs/internals/delivery-memory.md).
 */
export const SERVICE_NODE_FLAGS: Readonly<Record<string, readonly string[]>> = {
  'services/projector/src/main.ts': ['--max-semi-space-size=16'],
  'services/delivery/src/main.ts': ['--max-semi-space-size=32', '--heap-growing-percent=100'],
};

/** The Node flags to run an entry point (relative to the repository root) with. */
export function nodeFlagsFor(entry: string): readonly string[] {
  return [...NODE_FLAGS, ...(SERVICE_NODE_FLAGS[entry] ?? [])];
}

/**
 * Environment a service's process starts with, by entry point; what the
 * caller sets wins. docker-compose.yml repeats it (a test holds the two
 * together).
 *
 * Delivery fixes glibc malloc's mmap threshold at its initial 128 KB. glibc
 * raises the threshold to the size of each large block it frees, up to
 * 32 MB, so after the first Kafka fetch answers (about a megabyte each)
 * those blocks come from the process's heap instead of their own mappings,
 * and the heap keeps what it held at its highest: 94 MB of `[heap]` at the
 * peak of a 100,000-device campaign, 44–48 MB with the threshold fixed, and
 * about 30 MB less at the process's peak (502 and 511 MB against 533 and
 * 539), its CPU per push unchanged (73.0–74.5 against 73.0–73.5 µs).
 * Ignored where Node is not built on glibc.
 */
export const SERVICE_ENV: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'services/delivery/src/main.ts': { MALLOC_MMAP_THRESHOLD_: '131072' },
};

/** The environment to start an entry point with: its SERVICE_ENV under `env` (the caller's, which wins). */
export function serviceEnvFor(entry: string, env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  return { ...(SERVICE_ENV[entry] ?? {}), ...env };
}
