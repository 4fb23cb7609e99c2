// The cost of a rate-limit hit shared across API nodes (PostgreSQL table rate_limit_windows) against the
// in-memory count of one node, and against the same shared count on a connection that waits for the WAL
// flush on each commit (what the store's own pool does): sequential hits, median of interleaved rounds.
import os from 'node:os';
import pg from 'pg';
import { RateLimiter } from '../dist/src/web/rate-limit.js';
import { SharedRateLimiter } from '../dist/src/web/shared-rate-limit.js';

const URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const HITS = 500;
const ROUNDS = 5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default {
  name: 'rate-limits',
  title: 'Rate limits: a hit counted in PostgreSQL (shared by API nodes) vs in memory',
  async run() {
    const schema = `bench_rl_${process.pid}`;
    const admin = new pg.Client({ connectionString: URL });
    await admin.connect();
    await admin.query(
      `CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.rate_limit_windows (key VARCHAR(255) PRIMARY KEY, points INTEGER NOT NULL DEFAULT 0, expire BIGINT)`,
    );
    const pool = (extra) => new pg.Pool({ connectionString: URL, options: `-c search_path=${schema}${extra}`, max: 4 });
    const async = pool(' -c synchronous_commit=off');
    const sync = pool('');
    const limiters = {
      'memory (one node)': new RateLimiter(1e9, 3_600_000),
      'PostgreSQL, synchronous_commit=off (what the service uses)': new SharedRateLimiter(async, 'a', 1e9, 3_600_000),
      'PostgreSQL, commit waits for the WAL flush': new SharedRateLimiter(sync, 's', 1e9, 3_600_000),
    };
    const samples = Object.fromEntries(Object.keys(limiters).map((k) => [k, []]));
    const loadBefore = os.loadavg()[0];
    try {
      for (const l of Object.values(limiters)) for (let i = 0; i < 50; i++) await l.hit('key:warm');
      for (let round = 0; round < ROUNDS; round++) {
        for (const [name, l] of Object.entries(limiters)) {
          const t = process.hrtime.bigint();
          for (let i = 0; i < HITS; i++) await l.hit(`key:k${i % 50}`);
          samples[name].push(Number(process.hrtime.bigint() - t) / 1000 / HITS);
        }
      }
    } finally {
      await async.end();
      await sync.end();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    }
    const rows = Object.entries(samples).map(([name, xs]) => `| ${name} | ${median(xs).toFixed(1)} |`);
    return [
      `${HITS} sequential hits on 50 keys per round, median of ${ROUNDS} interleaved rounds.`,
      '',
      '| counted in | µs per hit |',
      '|---|---:|',
      ...rows,
      '',
      `Machine load (1-min average) ${loadBefore.toFixed(1)} before and ${os.loadavg()[0].toFixed(1)} after, on ${os.availableParallelism()} CPUs (shared with other work: the figures are noisy).`,
    ].join('\n');
  },
};
