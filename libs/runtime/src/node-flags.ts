/**
 * Flags every Herald Node process runs with. kafkajs 2.2.4 schedules its
 * request-queue check with a negative delay after a throttle window, which
 * Node ≥ 23 reports as a TimeoutNegativeWarning on every connection (kafkajs
 * issue 1751; Node clamps the delay to 1 ms, as kafkajs intends): noise that
 * hides real warnings, so that one warning class is silenced.
 */
export const NODE_FLAGS: readonly string[] = ['--disable-warning=TimeoutNegativeWarning'];
