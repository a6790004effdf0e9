/**
 * Calls that arrive before the next run of `fn` has started share that run;
 * a call never shares a run that started before it. For reads whose answer
 * must be at least as new as the caller's own earlier reads (the
 * coordinator's log ends, asked after it read its requests): the partitions
 * a fetch hands over together ask once, not each.
 */
export function sharedNextCall<T>(fn: () => Promise<T>): () => Promise<T> {
  let next: Promise<T> | undefined;
  return () => {
    next ??= new Promise<void>((start) => setImmediate(start)).then(() => {
      next = undefined;
      return fn();
    });
    return next;
  };
}
