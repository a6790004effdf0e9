import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { messagesOf } from '../api/client.ts';

export interface Loaded<T> {
  data: T | undefined;
  errors: string[] | undefined;
  loading: boolean;
  /** Loads again (keeps the current data on screen meanwhile). */
  reload: () => void;
}

/** Runs `load` when `deps` change; the newest answer wins, earlier ones in flight are dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; errors?: string[]; loading: boolean }>({ loading: true });
  const generation = useRef(0);
  const run = useCallback(() => {
    const mine = ++generation.current;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => {
        if (mine === generation.current) setState({ data, loading: false });
      },
      (error: unknown) => {
        if (mine !== generation.current) return;
        setState((previous) => ({ ...previous, loading: false, errors: messagesOf(error) }));
      },
    );
  }, deps);
  useEffect(run, [run]);
  return { data: state.data, errors: state.errors, loading: state.loading, reload: run };
}

/** Calls `fn` at most once per `ms` (trailing): for reloads triggered by a stream of events. */
export function useThrottled(fn: () => void, ms: number): () => void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(fn);
  latest.current = fn;
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(() => {
    if (timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      latest.current();
    }, ms);
  }, [ms]);
}

/**
 * After a change the list is a read model of (it follows the log a moment
 * behind), loads again every second until `settled` says the change shows,
 * at most `tries` times. `watch` starts it (a new value, a new watch).
 */
export function useUntilShown(reload: () => void, watch: unknown, settled: boolean, tries = 15): void {
  const left = useRef(0);
  useEffect(() => {
    left.current = watch === undefined ? 0 : tries;
  }, [watch]);
  useEffect(() => {
    if (watch === undefined || settled || left.current <= 0) return;
    const timer = setTimeout(() => {
      left.current -= 1;
      reload();
    }, 1000);
    return () => clearTimeout(timer);
  });
}
