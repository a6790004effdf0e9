import type { Command } from 'commander';
import { AppError, NotFoundError, ValidationError } from '@herald/errors';
import { createEvent } from '@herald/events';
import { NotificationQueries, ReadModelRegistry } from '@herald/mongo';
import { FINISHED_STATUSES } from '@herald/read-models';
import type { CliContext, Runner } from '../context.ts';

/** A rate as the CLI takes it: a positive whole number of pushes per minute. */
export function parseRate(text: string): number {
  const rate = Number(text);
  if (!Number.isInteger(rate) || rate < 1 || rate > 100_000_000) throw new ValidationError([`rate ${text} must be a whole number of pushes per minute from 1 to 100000000`]);
  return rate;
}

/** Publishes NotificationSteered as PATCH /api/v1/notifications/{id} does, after the same checks. */
async function steer(context: CliContext, projectId: string, id: string, change: { state?: 'paused' | 'sending'; rate_per_minute?: number }): Promise<void> {
  const doc = await new NotificationQueries(new ReadModelRegistry(context.mongo.db)).notification(projectId, id);
  if (doc === null) throw new NotFoundError(`notification ${id} does not exist in project ${projectId}`);
  if (FINISHED_STATUSES.includes(doc.status)) throw new AppError('CONFLICT', `notification ${id} has already finished (status ${doc.status})`);
  const { producer } = await context.kafka();
  await producer.publish([createEvent('NotificationSteered', { notification_id: id, ...change }, { project_id: projectId })]);
}

export function notificationCommands(program: Command, withContext: Runner): void {
  const notifications = program.command('notifications').description('steer a send in flight: pause, resume, re-pace (as PATCH /api/v1/notifications/{id})');

  notifications
    .command('pause <project-id> <notification-id>')
    .description('stop queueing and sending within a second; its devices are held, not lost')
    .action(async (projectId: string, id: string) =>
      withContext(async (context) => {
        await steer(context, projectId, id, { state: 'paused' });
        context.out(`notification ${id}: paused`);
      }),
    );

  notifications
    .command('resume <project-id> <notification-id>')
    .description('go on where it stopped')
    .action(async (projectId: string, id: string) =>
      withContext(async (context) => {
        await steer(context, projectId, id, { state: 'sending' });
        context.out(`notification ${id}: sending`);
      }),
    );

  notifications
    .command('rate <project-id> <notification-id> <per-minute>')
    .description('send the rest at this many pushes per minute, across every delivery instance')
    .action(async (projectId: string, id: string, perMinute: string) =>
      withContext(async (context) => {
        const rate = parseRate(perMinute);
        await steer(context, projectId, id, { rate_per_minute: rate });
        context.out(`notification ${id}: ${rate} pushes per minute`);
      }),
    );
}
