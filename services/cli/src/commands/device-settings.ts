import { Argument, type Command } from 'commander';
import { NotFoundError, ValidationError } from '@herald/errors';
import { DeviceQueries, ReadModelRegistry } from '@herald/mongo';
import { purgeDeletedDevices } from '@herald/projections';
import type { Runner } from '../context.ts';

/**
 * Project settings for what devices may do without a key: create topics
 * (`device-topics`), and how many devices the project may hold
 * (`device-quota`). Without a state or a number they print the setting.
 * And `purge-devices`: the devices the project deleted leave the read
 * models for good.
 */
export function deviceSettingsCommands(projects: Command, withContext: Runner): void {
  projects
    .command('device-topics')
    .description(
      'let devices create topics by naming them in a registration (off by default: only POST /api/v1/topics with the API key creates them, ' +
        'and a registration naming a topic that does not exist is refused); no state prints the setting',
    )
    .argument('<project-id>', 'the project')
    .addArgument(new Argument('[state]', 'on or off; left out: print whether it is on').choices(['on', 'off']))
    .option('--json', 'print {"project_id", "device_topics"}')
    .action(async (projectId: string, state: 'on' | 'off' | undefined, options: { json?: boolean }) =>
      withContext(async ({ admin, out }) => {
        if (state !== undefined && !(await admin.setDeviceTopics(projectId, state === 'on'))) throw new NotFoundError(`project ${projectId} does not exist`);
        const project = await admin.findProject(projectId);
        if (project === null) throw new NotFoundError(`project ${projectId} does not exist`);
        const on = project.device_topics === true;
        if (options.json === true) out(JSON.stringify({ project_id: projectId, device_topics: on }));
        else out(`devices ${on ? 'may' : 'may not'} create topics in project ${projectId}${on ? ' (device-created topics are self-asserted: see docs/guides/topics.md)' : ''}`);
      }),
    );

  projects
    .command('device-quota')
    .description("the most devices the project may hold (active and inactive); 'default' goes back to the API's PROJECT_DEVICE_QUOTA; no value prints the setting")
    .argument('<project-id>', 'the project')
    .argument('[quota]', "a whole number of devices, or 'default'")
    .option('--json', 'print {"project_id", "device_quota"} (null: the API default)')
    .action(async (projectId: string, quota: string | undefined, options: { json?: boolean }) =>
      withContext(async ({ admin, out }) => {
        if (quota !== undefined) {
          if (quota !== 'default' && !/^[1-9]\d{0,9}$/.test(quota)) throw new ValidationError([`quota must be a whole number of devices (1 or more) or 'default', not ${quota}`]);
          if (!(await admin.setDeviceQuota(projectId, quota === 'default' ? undefined : Number(quota)))) throw new NotFoundError(`project ${projectId} does not exist`);
        }
        const project = await admin.findProject(projectId);
        if (project === null) throw new NotFoundError(`project ${projectId} does not exist`);
        const value = project.device_quota ?? null;
        if (options.json === true) out(JSON.stringify({ project_id: projectId, device_quota: value }));
        else out(value === null ? `project ${projectId} has the API's default device quota (PROJECT_DEVICE_QUOTA)` : `project ${projectId} holds at most ${value} devices`);
      }),
    );

  projects
    .command('purge-devices')
    .description(
      'purge the devices the project deleted (DevicePurged, as POST /api/v1/devices/purge): they leave the device list and the audience index, ' +
        'and a replay leaves them out; their receipts stay. Up to 1,000 a run: run again while it says more are left',
    )
    .argument('<project-id>', 'the project')
    .option('--json', 'print {"project_id", "purged", "more"}')
    .action(async (projectId: string, options: { json?: boolean }) =>
      withContext(async ({ admin, mongo, kafka, out }) => {
        if ((await admin.findProject(projectId)) === null) throw new NotFoundError(`project ${projectId} does not exist`);
        const { events, more } = await purgeDeletedDevices(new DeviceQueries(new ReadModelRegistry(mongo.db)), projectId);
        if (events.length > 0) await (await kafka()).producer.publish(events);
        if (options.json === true) out(JSON.stringify({ project_id: projectId, purged: events.length, more }));
        else out(`purged ${events.length} deleted devices of project ${projectId}${more ? ' (more are left: run again)' : ''}`);
      }),
    );
}
