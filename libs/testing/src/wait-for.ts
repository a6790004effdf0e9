/**
 * Polls `probe` until it returns a value other than undefined/false, or
 * fails after `timeoutMs` with a message naming what was awaited. Tests wait
 * for conditions (an offset, a read-model state), never for a fixed time.
 */
export async function waitFor<T>(description: string, probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  let interval = 25;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const reason = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}${reason}`);
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
    interval = Math.min(interval * 2, 250);
  }
}
