import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import { READ_MODELS, ReadModelRegistry, type ReadModelName } from '@herald/mongo';
import { consumerGroupLag, withLogAdmin } from '@herald/kafka';
import { planRebuild, PROJECTIONS, rebuildReadModel } from '@herald/projections';
import { ValidationError } from '@herald/errors';
import { DELIVERY_CONSUMERS } from '@herald/events';
import type { Runner } from '../context.ts';

/** How long the projector may take to follow a switch (it polls every 2 s) before an old version is dropped. */
const FOLLOW_GRACE_MS = 5_000;

function readModelName(name: string): ReadModelName {
  if (!(name in READ_MODELS)) throw new ValidationError([`read model must be one of: ${Object.keys(READ_MODELS).join(', ')}`]);
  return name as ReadModelName;
}

export function readModelCommands(program: Command, withContext: Runner): void {
  program
    .command('replay <read-model>')
    .description('rebuild a read model from the earliest offsets into a new version, then switch readers to it')
    .option('--dry-run', 'say what would be rebuilt, change nothing')
    .option('--drop-old', 'after switching, drop the versions readers no longer use')
    .action(async (name: string, options: { dryRun?: boolean; dropOld?: boolean }) =>
      withContext(async ({ mongo, logger, out, kafka }) => {
        const model = readModelName(name);
        const deps = { ...(await kafka()), db: mongo.db, logger };
        const plan = await planRebuild(deps, model);
        out(`${options.dryRun === true ? 'would rebuild' : 'rebuilding'} ${model}: v${plan.from.version} (${plan.from.collection}) → v${plan.to.version} (${plan.to.collection})`);
        out(`  replaying ${plan.events} events from ${plan.topics.join(', ')} with consumer group ${plan.to.group}`);
        if (options.dryRun === true) return;

        const bar = new cliProgress.SingleBar(
          {
            format: '  {bar} {value}/{total} events | {rate}/s | ETA {eta_formatted}',
            etaBuffer: 50,
            noTTYOutput: true,
            notTTYSchedule: 2_000,
            stream: process.stderr,
          },
          cliProgress.Presets.shades_classic,
        );
        const started = Date.now();
        bar.start(plan.events, 0, { rate: 0 });
        await rebuildReadModel(deps, plan, (done) => {
          const seconds = Math.max((Date.now() - started) / 1000, 0.001);
          // Events written after the plan was made are replayed too.
          bar.setTotal(Math.max(plan.events, done));
          bar.update(done, { rate: Math.round(done / seconds) });
        });
        bar.stop();
        out(`switched ${model} readers to v${plan.to.version} in ${((Date.now() - started) / 1000).toFixed(1)} s; v${plan.from.version} is kept`);

        if (options.dropOld === true) {
          await new Promise((resolve) => setTimeout(resolve, FOLLOW_GRACE_MS));
          const dropped = await new ReadModelRegistry(mongo.db).dropRetired(model);
          await withLogAdmin(deps.kafka, (admin) => admin.deleteGroups(dropped.map((version) => deps.kafka.group(version.group)))).catch(() => undefined);
          out(`dropped ${dropped.map((version) => version.collection).join(', ') || 'nothing'}`);
        }
      }),
    );

  program
    .command('lag')
    .description("each Herald consumer group's lag per topic: records not committed past (transaction markers do not count; 0 means caught up)")
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) =>
      withContext(async ({ mongo, out, kafka }) => {
        const registry = new ReadModelRegistry(mongo.db, { cacheMs: 0 });
        const known: Array<{ group: string; topics: readonly string[] }> = Object.values(DELIVERY_CONSUMERS);
        for (const [model, projection] of Object.entries(PROJECTIONS)) {
          known.push({ group: (await registry.active(model as ReadModelName)).group, topics: projection.topics });
        }
        const rows = await consumerGroupLag((await kafka()).kafka, known, 'herald.');
        if (options.json === true) return out(JSON.stringify(rows));
        const width = Math.max(5, ...rows.map((row) => row.group.length));
        out(`${'group'.padEnd(width)}  ${'topic'.padEnd(28)}  lag`);
        // A gap too long to read is its span, markers included: an upper bound.
        for (const row of rows) out(`${row.group.padEnd(width)}  ${row.topic.padEnd(28)}  ${row.exact ? '' : '<= '}${row.lag}`);
      }),
    );
}
