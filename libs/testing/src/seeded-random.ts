/**
 * A seeded generator for property tests, uniform in [0, 1): the same seed
 * gives the same inputs on every run, so a failure can be replayed. No
 * imports, so any package's tests can use it (`@herald/testing/seeded-random`)
 * without loading the rest of this package.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
