import { describe, expect, it } from 'vitest';
import type { Db } from 'mongodb';
import { driverDb, storeOver, Store, unreachableStore } from './store-handle.ts';

describe('a store handle', () => {
  it('gives libs/mongo back the driver database it was made over', () => {
    const db = { databaseName: 'herald' } as unknown as Db;
    expect(driverDb(storeOver(db))).toBe(db);
  });

  it('shows nothing of the driver: no enumerable member, nothing in JSON or a log line', () => {
    const store = storeOver({ databaseName: 'herald' } as unknown as Db);
    expect(store).toBeInstanceOf(Store);
    expect(Object.keys(store)).toEqual([]);
    expect(JSON.stringify(store)).toBe('{}');
  });

  it('is nominal: another object is no store, by type or at run time', () => {
    // @ts-expect-error a plain object does not pass for a Store
    const fake: Store = {};
    expect(() => driverDb(fake)).toThrow(/not a store handle/);
  });

  it('made unreachable, lets query classes open collections and throws once one is used', () => {
    const collection = driverDb(unreachableStore('no store here')).collection('anything');
    expect(() => collection.findOne({})).toThrow('no store here');
  });
});
