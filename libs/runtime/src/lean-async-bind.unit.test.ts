import { AsyncLocalStorage, AsyncResource, executionAsyncId } from 'node:async_hooks';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type ResourceBind, useLeanAsyncResourceBind } from './lean-async-bind.ts';

/** A resource class of its own, so the lean bind never changes the test process's AsyncResource. */
class LeanResource extends AsyncResource {}
useLeanAsyncResourceBind(LeanResource.prototype);

/** What a function bound by a resource made in one context reports when called, as a method of `holder`, in another. */
function callReport(makeResource: () => AsyncResource, thisArg?: object) {
  const store = new AsyncLocalStorage<string>();
  const resource = store.run('where it was bound', makeResource);
  const bound = (resource as unknown as ResourceBind).bind(function (this: unknown, a: number, b: number) {
    return { self: this, args: [a, b], store: store.getStore(), asyncId: executionAsyncId() };
  }, thisArg);
  const holder = { bound };
  return { bound, holder, result: store.run('where it is called', () => holder.bound(1, 2)) };
}

describe('useLeanAsyncResourceBind', () => {
  it("runs the function in the resource's async scope, as Node's bind does", () => {
    const storage = new AsyncLocalStorage<string>();
    for (const [Resource, context] of [[LeanResource, 'lean'], [AsyncResource, 'node']] as const) {
      const resource = storage.run(context, () => new Resource('test'));
      const bound = resource.bind(() => [storage.getStore(), executionAsyncId()]);
      expect(bound()).toEqual([context, resource.asyncId()]);
    }
  });

  it('keeps the store, `this`, arguments and length of a bound function like Node', () => {
    const lean = callReport(() => new LeanResource('test'));
    expect(lean.result.store).toBe('where it was bound');
    expect(lean.result.self).toBe(lean.holder);
    expect(lean.result.args).toEqual([1, 2]);
    expect(lean.bound.length).toBe(2);

    const target = { name: 'target' };
    const fixed = callReport(() => new LeanResource('test'), target);
    expect(fixed.result.self).toBe(target);
    expect(fixed.bound.length).toBe(2);

    const node = callReport(() => new AsyncResource('test'), target);
    expect({ ...fixed.result, asyncId: 0 }).toEqual({ ...node.result, asyncId: 0 });
  });

  it('gives the bound function its resource as a plain property, not an accessor made for each call', () => {
    const resource = new LeanResource('test');
    const bound = resource.bind(() => 1);
    expect(Object.getOwnPropertyDescriptor(bound, 'asyncResource')).toEqual({ value: resource, writable: true, enumerable: true, configurable: true });
    expect(Object.keys(bound)).toEqual(['asyncResource']);
  });

  it('throws a TypeError coded ERR_INVALID_ARG_TYPE, as Node does, for something that is not a function', () => {
    const resource = new LeanResource('test');
    expect(() => resource.bind(42 as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
  });

  it('is idempotent', () => {
    const ownBind = (prototype: object): unknown => Object.getOwnPropertyDescriptor(prototype, 'bind')?.value;
    const lean = ownBind(LeanResource.prototype);
    useLeanAsyncResourceBind(LeanResource.prototype);
    expect(ownBind(LeanResource.prototype)).toBe(lean);
    expect(lean).not.toBe(ownBind(AsyncResource.prototype));
  });

  it('leaves what a bound function captures to the young generation, where Node\'s bind gets it promoted', () => {
    // A child Node process: it needs --expose-gc, and it changes its own AsyncResource.
    const module = fileURLToPath(new URL('./lean-async-bind.ts', import.meta.url));
    const script = `
      import { AsyncResource } from 'node:async_hooks';
      import v8 from 'node:v8';
      import { useLeanAsyncResourceBind } from ${JSON.stringify(module)};
      const oldSpace = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space').space_used_size;
      function promotedByBinding() {
        globalThis.gc();
        const before = oldSpace();
        const resource = new AsyncResource('probe');
        for (let i = 0; i < 1000; i++) {
          const payload = new Array(1000).fill(i);
          resource.bind(() => payload.length)();
        }
        globalThis.gc({ type: 'minor' });
        globalThis.gc({ type: 'minor' });
        return oldSpace() - before;
      }
      const node = promotedByBinding();
      useLeanAsyncResourceBind();
      console.log(JSON.stringify({ node, lean: promotedByBinding() }));`;
    const output = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
    const promoted = JSON.parse(output) as { node: number; lean: number };
    // 1,000 payloads of 8 KB: Node's bind promotes them all; nothing keeps them with the lean one.
    expect(promoted.node).toBeGreaterThan(4_000_000);
    expect(promoted.lean).toBeLessThan(500_000);
  });
});
