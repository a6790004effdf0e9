/**
 * Every call the console makes goes through here: a request the API has not
 * begun to answer within REQUEST_TIMEOUT_MS is given up, and a request that
 * got no answer at all is an ApiError of status 0 saying why in words
 * (offline, unreachable, too slow), never the browser's "Failed to fetch".
 */
export const REQUEST_TIMEOUT_MS = 15_000;

export type NoAnswer = 'offline' | 'unreachable' | 'timeout';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: string[],
    /** Set when no answer came at all (status 0). */
    readonly noAnswer?: NoAnswer,
  ) {
    super(errors.join('; '));
  }
}

export const NO_ANSWER_TEXT: Record<NoAnswer, string> = {
  offline: 'You are offline: this browser has no network connection.',
  unreachable: 'Could not reach the Herald API: the server may be down or restarting.',
  timeout: `The Herald API did not answer within ${REQUEST_TIMEOUT_MS / 1000} s.`,
};

export function noAnswer(kind: NoAnswer): ApiError {
  return new ApiError(0, [NO_ANSWER_TEXT[kind]], kind);
}

/** The messages of any failure, as people read them. */
export function messagesOf(error: unknown): string[] {
  if (error instanceof ApiError) return error.errors;
  if (error instanceof DOMException && error.name === 'AbortError') return ['Stopped before the API answered.'];
  if (error instanceof TypeError) return [NO_ANSWER_TEXT[navigator.onLine ? 'unreachable' : 'offline']];
  return [`Something went wrong in the console: ${error instanceof Error ? error.message : String(error)}`];
}

/**
 * fetch with a deadline for the answer's headers (a stream's body may then
 * run for as long as it lasts), and the caller's own abort kept apart.
 */
export async function timedFetch(input: Request | string, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), REQUEST_TIMEOUT_MS);
  try {
    return await fetch(new Request(request, { signal: AbortSignal.any([request.signal, deadline.signal]) }));
  } catch (error) {
    if (request.signal.aborted) throw error;
    if (deadline.signal.aborted) throw noAnswer('timeout');
    throw noAnswer(navigator.onLine ? 'unreachable' : 'offline');
  } finally {
    clearTimeout(timer);
  }
}
