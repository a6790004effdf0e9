import { describe, expect, it } from 'vitest';
import type { Consumer } from 'kafkajs';
import type { Logger } from '@herald/log';
import { crashRestarts } from './crash-restart.ts';

function fakes() {
  const handlers = new Map<string, (event: { payload: { error: Error; restart: boolean } }) => void>();
  const consumer = { events: { CRASH: 'consumer.crash' }, on: (name: string, handler: never) => handlers.set(name, handler), connect: async () => undefined, run: async () => undefined } as unknown as Consumer;
  const lines: Array<{ level: string; fields: Record<string, unknown>; message: string }> = [];
  const logger = {
    warn: (fields: Record<string, unknown>, message: string) => lines.push({ level: 'warn', fields, message }),
    error: (fields: Record<string, unknown>, message: string) => lines.push({ level: 'error', fields, message }),
  } as unknown as Logger;
  return { crash: (error: Error, restart: boolean) => handlers.get('consumer.crash')!({ payload: { error, restart } }), lines, consumer, logger };
}

describe('crashRestarts', () => {
  it('says a crash kafkajs restarts from in one plain line, without the error object (no stack)', () => {
    const { crash, lines, consumer, logger } = fakes();
    crashRestarts(consumer, logger);
    crash(new Error("The coordinator is loading and hence can't process requests for this group"), true);
    expect(lines).toEqual([{ level: 'warn', fields: { reason: "The coordinator is loading and hence can't process requests for this group" }, message: 'consumer restarting after a passing Kafka error' }]);
  });

  it('logs a crash kafkajs does not restart from as an error, with the error', async () => {
    const { crash, lines, consumer, logger } = fakes();
    const restarts = crashRestarts(consumer, logger);
    const error = new Error('transaction refused for good');
    crash(error, false);
    expect(lines[0]).toMatchObject({ level: 'error', fields: { err: error }, message: 'consumer crashed' });
    await restarts.stop();
  });
});
