import { describe, expect, it } from 'vitest';
import { MongoNetworkError, MongoNetworkTimeoutError, MongoServerError, MongoNotConnectedError } from 'mongodb';
import { isRetriable } from '@herald/errors';
import { wrapMongoError } from './connect-mongo.ts';

const server = (code: number, errmsg: string, labels: string[] = []) => new MongoServerError({ code, errmsg, errorLabels: labels });

describe('wrapMongoError', () => {
  it('makes store outages retriable', () => {
    for (const error of [
      new MongoNetworkError('connection closed'),
      new MongoNetworkTimeoutError('timed out'),
      new MongoNotConnectedError('not connected'),
      server(10107, 'not primary'),
      server(91, 'shutting down'),
      server(112, 'write conflict'),
      server(2, 'whatever', ['RetryableWriteError']),
      server(1, 'failed to connect to `host=127.0.0.1`: dial error (connection refused)'),
    ]) {
      expect(isRetriable(wrapMongoError(error)), error.message).toBe(true);
    }
  });

  it('makes a socket error the driver lets through unwrapped retriable (a write to a connection the store just closed)', () => {
    const epipe = Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' });
    expect(isRetriable(wrapMongoError(epipe))).toBe(true);
    const notASocket = Object.assign(new Error('no such file'), { code: 'ENOENT' });
    expect(wrapMongoError(notASocket)).toBe(notASocket);
  });

  it('leaves request errors alone', () => {
    const duplicate = server(11000, 'E11000 duplicate key');
    expect(wrapMongoError(duplicate)).toBe(duplicate);
    const bad = server(2, 'BadValue');
    expect(wrapMongoError(bad)).toBe(bad);
    const bug = new TypeError('x');
    expect(wrapMongoError(bug)).toBe(bug);
  });
});
