// A small HTTP load generator on undici: closed loop (N in flight) and open loop (fixed arrival rate),
// recording every latency. Bounded by duration; loopback only.
import { Pool } from 'undici';

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function summarize(latencies, elapsedMs, errors = 0) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    count: sorted.length,
    errors,
    rps: (sorted.length / elapsedMs) * 1000,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? NaN,
  };
}

/** Keeps `concurrency` requests in flight for `durationMs`; `makeRequest(i)` returns undici request options. */
export async function closedLoop(origin, { concurrency = 32, durationMs = 5000, warmupMs = 500, makeRequest, expectStatus }) {
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1 });
  const latencies = [];
  let errors = 0;
  let i = 0;
  const stopAt = Date.now() + warmupMs + durationMs;
  const measureFrom = Date.now() + warmupMs;
  let measuredStart = 0;
  async function worker() {
    while (Date.now() < stopAt) {
      const opts = makeRequest(i++);
      const t0 = performance.now();
      try {
        const res = await pool.request(opts);
        await res.body.dump();
        const ms = performance.now() - t0;
        if (expectStatus && res.statusCode !== expectStatus) errors++;
        else if (Date.now() >= measureFrom) {
          if (!measuredStart) measuredStart = Date.now();
          latencies.push(ms);
        }
      } catch {
        errors++;
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = Date.now() - (measuredStart || measureFrom);
  await pool.close();
  return summarize(latencies, elapsed, errors);
}

/**
 * Sends at a fixed rate (requests/second) for `durationMs`, whatever the server does: latencies include
 * queueing. The first `warmupMs` of requests are sent but not recorded (as closedLoop does), so opening
 * the pool's connections is not counted as the server's latency.
 */
export async function openLoop(origin, { rate = 1000, durationMs = 5000, warmupMs = 500, makeRequest, expectStatus, connections = 64 }) {
  const pool = new Pool(origin, { connections, pipelining: 1 });
  const latencies = [];
  let errors = 0;
  const warmup = Math.round((rate * warmupMs) / 1000);
  const total = warmup + Math.round((rate * durationMs) / 1000);
  const start = performance.now();
  const inflight = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    // Latency counts from the scheduled time when the send is late, so a stalled server cannot hide (no
    // coordinated omission), and from the send itself when the timer woke up early.
    const t0 = Math.min(due, performance.now());
    inflight.push(
      pool
        .request(makeRequest(i))
        .then(async (res) => {
          await res.body.dump();
          if (expectStatus && res.statusCode !== expectStatus) errors++;
          else if (i >= warmup) latencies.push(performance.now() - t0);
        })
        .catch(() => errors++),
    );
  }
  await Promise.all(inflight);
  const elapsed = performance.now() - start - warmupMs;
  await pool.close();
  return { ...summarize(latencies, elapsed, errors), offered: rate };
}

export const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '–');
