import { useEffect, useRef, useState } from 'preact/hooks';
import { api, errorsOf, messagesOf } from '../../api/client.ts';

export interface PlatformCount {
  total: number;
  by_platform: Record<string, number>;
}

export type CountState =
  | { state: 'idle' }
  | { state: 'counting' }
  | { state: 'counted'; count: PlatformCount }
  /** The API refused the expression (422): its messages, to be shown at the nodes they name. */
  | { state: 'refused'; messages: string[] }
  | { state: 'failed'; messages: string[] };

/** The dry run's body needs content to be a send; nothing is sent, so any words do. */
const COUNT_CONTENT = { title: 'Audience count', body: 'Audience count' };

/**
 * The live count of one target by platform: asked of the dry run 500 ms
 * after the target last changed, the newest answer wins (an older one still
 * in flight is dropped), and every request has the client's deadline, so it
 * ends counted, refused or failed — never counting for ever.
 */
export function useAudienceCount(target: unknown, ready: boolean): { count: CountState; recount: () => void } {
  const [count, setCount] = useState<CountState>({ state: 'idle' });
  const generation = useRef(0);
  const key = ready ? JSON.stringify(target) : '';
  const run = async () => {
    const mine = ++generation.current;
    setCount({ state: 'counting' });
    const done = (next: CountState) => {
      if (mine === generation.current) setCount(next);
    };
    try {
      const { data, error, response } = await api.POST('/api/v1/notifications/dry-run', { body: { notification: { ...COUNT_CONTENT, targets: [target as string] } } });
      if (data !== undefined) return done({ state: 'counted', count: data.data });
      const messages = errorsOf(error, response.status);
      done(response.status === 422 ? { state: 'refused', messages } : { state: 'failed', messages });
    } catch (error) {
      done({ state: 'failed', messages: messagesOf(error) });
    }
  };
  useEffect(() => {
    generation.current += 1;
    if (key === '') return setCount({ state: 'idle' });
    setCount({ state: 'counting' });
    const timer = setTimeout(() => void run(), 500);
    return () => clearTimeout(timer);
  }, [key]);
  return { count, recount: () => void run() };
}
