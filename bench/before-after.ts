// Create rates before and after a change, measured in one run on this machine: the engine of a baseline
// commit (default: the last build before events and webhooks, whose rates issue 25 must keep within 10%)
// is checked out into a temporary worktree beside this one, both are compiled, and the same load runs
// against each in turn, alternating, so machine noise falls on both alike. Each round is bench/profile.ts
// without the profiler: 32 connections for 10 s, the engine's rate and its CPU per request.
// --pg: on PostgreSQL (a fresh database each round) instead of SQLite.
// Run: node --import tsx bench/before-after.ts [--rounds N] [--baseline REV] [--pg]   (also part of `npm run bench`)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withPostgres } from './addresses';

/** The last commit before the events outbox grew webhooks, lifecycle and the route table of round 3. */
export const BEFORE_EVENTS = '5524f1e';

const ROOT = path.join(__dirname, '..');
/** The harness is this checkout's, so both builds are loaded the same way. */
const HARNESS = ['profile.ts', 'bodies.ts', 'lib.ts', 'cpu.ts'];

interface Round {
  rate: number;
  cpuUs: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function compile(dir: string): void {
  execFileSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      'tsconfig.json',
      '--noEmit',
      'false',
      '--outDir',
      'bench-output/build',
    ],
    {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

async function round(dir: string, scenario: string, postgres: boolean): Promise<Round> {
  const run = (extra: string[]) =>
    execFileSync(process.execPath, [path.join(dir, 'bench-output/build/bench/profile.js'), scenario, ...extra], {
      cwd: dir,
      env: { ...process.env, RATE_ONLY: '1' },
      encoding: 'utf8',
    });
  const out = postgres ? await withPostgres(async (url) => run(['--pg-url', url])) : run([]);
  const match = /: (\d+) req\/s, \d+ requests, engine CPU (\d+) µs/.exec(out);
  if (!match) throw new Error(`no figures in: ${out}`);
  return { rate: Number(match[1]), cpuUs: Number(match[2]) };
}

/** A worktree of `rev` with this checkout's node_modules and harness. */
function baselineTree(rev: string): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-baseline-'));
  execFileSync('git', ['worktree', 'add', '--force', '--detach', dir, rev], { cwd: ROOT, stdio: 'ignore' });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  for (const file of HARNESS) fs.copyFileSync(path.join(ROOT, 'bench', file), path.join(dir, 'bench', file));
  return {
    dir,
    remove: () => execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT, stdio: 'ignore' }),
  };
}

export async function benchBeforeAfter(rev = BEFORE_EVENTS, rounds = 3, postgres = false): Promise<void> {
  const baseline = baselineTree(rev);
  try {
    compile(baseline.dir);
    compile(ROOT);
    process.stdout.write(
      `before: ${rev}; after: this checkout; ${postgres ? 'PostgreSQL' : 'SQLite'}; ${rounds} alternating rounds of 10 s each, medians\n`,
    );
    process.stdout.write('request          before req/s  after req/s  change   CPU µs/request before -> after\n');
    for (const scenario of ['create', 'postcard']) {
      const before: Round[] = [];
      const after: Round[] = [];
      for (let i = 0; i < rounds; i++) {
        before.push(await round(baseline.dir, scenario, postgres));
        after.push(await round(ROOT, scenario, postgres));
      }
      const [b, a] = [median(before.map((r) => r.rate)), median(after.map((r) => r.rate))];
      const [bc, ac] = [median(before.map((r) => r.cpuUs)), median(after.map((r) => r.cpuUs))];
      const change = ((a / b - 1) * 100).toFixed(1);
      const label = scenario === 'create' ? 'POST addresses' : 'POST postcards';
      process.stdout.write(
        `${label.padEnd(16)} ${String(b).padStart(12)}  ${String(a).padStart(11)}  ${`${change}%`.padStart(6)}   ${bc} -> ${ac}\n`,
      );
    }
  } finally {
    baseline.remove();
  }
}

if (require.main === module) {
  const at = (flag: string) => process.argv[process.argv.indexOf(flag) + 1];
  void benchBeforeAfter(
    process.argv.includes('--baseline') ? at('--baseline') : BEFORE_EVENTS,
    process.argv.includes('--rounds') ? Number(at('--rounds')) : 3,
    process.argv.includes('--pg'),
  );
}
