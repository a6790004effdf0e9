// Times what the fan-out runs against the local store: bulk inserts of
// devices, then keyset pages of the audience query
//   find({project_id, status:'active', topics: T, _id: {$gt: after}}).sort({_id: 1}).limit(1000)
// (first page, a middle page). Run against a running store:
//   node infra/probe/keyset-probe.mjs mongodb://127.0.0.1:27017/ 100000
import { MongoClient } from 'mongodb';

const [url = 'mongodb://127.0.0.1:27017/', countArg = '100000', pageArg = '1000', bulkArg = '10000'] = process.argv.slice(2);
const count = Number(countArg);
const pageSize = Number(pageArg);
const client = new MongoClient(url);
const db = client.db(`probe_${Date.now()}`);
const devices = db.collection('devices');
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

await devices.createIndexes([
  { key: { project_id: 1, status: 1, topics: 1, _id: 1 }, name: 'by_project_status_topic_id' },
  { key: { project_id: 1, token: 1 }, name: 'by_project_token' },
]);
const id = (i) => `dev_${String(i).padStart(9, '0')}`;
let t0 = process.hrtime.bigint();
for (let start = 0; start < count; start += 1000) {
  const docs = [];
  for (let i = start; i < Math.min(count, start + 1000); i++) {
    docs.push({
      _id: id(i), project_id: i % 10 === 0 ? 'prj_other' : 'prj_probe', token: `tok_${i}`.padEnd(64, 'x'),
      platform: i % 2 ? 'ios' : 'android', status: i % 50 === 0 ? 'inactive' : 'active', topics: ['all', i % 3 ? 'news' : 'sport'],
      metadata: { lang: 'en' }, identifiers: {}, identifier_values: [], created_at: new Date().toISOString(),
    });
  }
  await devices.insertMany(docs, { ordered: false });
}
const insertMs = ms(t0);

t0 = process.hrtime.bigint();
const ops = [];
for (let i = 0; i < Math.min(count, Number(bulkArg)); i++) ops.push({ updateOne: { filter: { _id: id(i) }, update: { $set: { 'metadata.lang': 'de' } } } });
for (let i = 0; i < ops.length; i += 1000) await devices.bulkWrite(ops.slice(i, i + 1000), { ordered: false });
const bulkMs = ms(t0);

const page = async (after) => {
  const t = process.hrtime.bigint();
  const filter = { project_id: 'prj_probe', status: 'active', topics: 'news', ...(after === undefined ? {} : { _id: { $gt: after } }) };
  const rows = await devices.find(filter).sort({ _id: 1 }).limit(pageSize).toArray();
  return { ms: Math.round(ms(t)), rows: rows.length };
};
console.error(`inserted ${count} in ${Math.round(insertMs)} ms, ${ops.length} bulk updates in ${Math.round(bulkMs)} ms`);
const first = await page(undefined);
const middle = await page(id(Math.floor(count / 2)));
const firstAgain = await page(undefined);
const rss = process.memoryUsage().rss;
console.log(JSON.stringify({
  devices: count, insert_per_s: Math.round(count / (insertMs / 1000)), insert_s: Math.round(insertMs / 1000), bulk_update_per_s: ops.length === 0 ? null : Math.round(ops.length / (bulkMs / 1000)),
  first_page_ms: first.ms, first_page_again_ms: firstAgain.ms, middle_page_ms: middle.ms, page_rows: first.rows, probe_rss_mb: Math.round(rss / 2 ** 20),
}));
await db.dropDatabase();
await client.close();
