// The README's recurring-campaign example, run as it is written (bash, curl and jq) against a real
// engine on each database: the block after its `example:recurring-campaign` marker makes the audience,
// the scheduled campaign and its creative, sends it once, and prints the run's report.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { databaseSuite } from '../helpers/suite';

const { test } = databaseSuite();
const README = path.resolve(__dirname, '../../README.md');
const MARKER = '<!-- example:recurring-campaign -->';

/** The first ```sh block after the marker, as a reader would copy it. */
function exampleBlock(): string {
  const text = fs.readFileSync(README, 'utf8');
  const at = text.indexOf(MARKER);
  if (at < 0) throw new Error(`README.md has no ${MARKER}`);
  const block = /```sh\n([\s\S]*?)\n```/.exec(text.slice(at));
  if (!block) throw new Error(`no sh block after ${MARKER}`);
  return block[1];
}

test("the README's recurring campaign, run with curl, makes a scheduled campaign and a run of its audience", async (t, {
  engine,
  api,
}) => {
  t.timeout(120_000);
  const script = exampleBlock();
  t.regex(script, /"schedule": \{"cron"/, 'the example is a recurring campaign');
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
    env: { ...process.env, PRINTPOST_URL: engine.url, PRINTPOST_KEY: engine.keys.test },
    timeout: 60_000,
  });
  // what it printed last: the run's report
  const report = JSON.parse(stdout.slice(stdout.lastIndexOf('{\n'))) as Record<string, unknown>;
  t.deepEqual(report, { status: 'completed', recipients: 1, pieces_created: 1, skipped_count: 0 });

  const campaigns = await api<{ data: Record<string, unknown>[] }>('GET', '/v1/campaigns?limit=100');
  const campaign = campaigns.body.data.find((c) => c.name === 'Monday welcome');
  t.like(campaign, {
    status: 'scheduled',
    schedule: { cron: '0 9 * * 1', time_zone: 'America/New_York' },
    audience: { metadata: { segment: 'new' }, created_since_last_run: true },
    creatives: [{ resource_type: 'postcard' }],
  });
  const pieces = await api<{ data: { to: { name: string } }[] }>('GET', `/v1/postcards?campaign_id=${campaign?.id}`);
  t.deepEqual(
    pieces.body.data.map((p) => p.to.name),
    ['HARRY ZHANG'],
  );
});
