// Overview: current queue and counts by tool and status as text, and per-minute charts (tasks created,
// queue depth, failures and p50/p95 run time by tool) drawn by uPlot from /console/api/overview.
import { Router } from 'express';
import type { TaskStore } from '../store/port.js';
import type { ConsoleSecrets } from './session.js';
import { html, page } from './html.js';
import { overviewSeries } from './overview-series.js';
import { taskTimeline, type SqlRunner } from './queries.js';

export interface OverviewDeps {
  store: TaskStore;
  secrets: ConsoleSecrets;
  sql: SqlRunner | undefined;
}

/** The charts cover this many minutes. */
const WINDOW_MINUTES = 60;
/** At most this many tasks are read for the charts (a busier hour is sampled from its newest tasks). */
const TIMELINE_LIMIT = 20_000;

const CHARTS = [
  { id: 'chart-created', title: 'Tasks created per minute' },
  { id: 'chart-queue', title: 'Queue depth (pending tasks)' },
  { id: 'chart-failures', title: 'Failures per minute by tool' },
  { id: 'chart-p50', title: 'p50 run time by tool (ms)' },
  { id: 'chart-p95', title: 'p95 run time by tool (ms)' },
];

export function overviewPages(d: OverviewDeps): Router {
  const r = Router();

  r.get('/api/overview', async (_req, res) => {
    const now = Date.now();
    const rows = d.sql ? await taskTimeline(d.sql, now - WINDOW_MINUTES * 60_000, TIMELINE_LIMIT) : [];
    res.setHeader('Cache-Control', 'no-store');
    res.json(overviewSeries(rows, now, WINDOW_MINUTES));
  });

  r.get('/', async (req, res) => {
    const stats = await d.store.stats();
    const byTool = new Map<string, Record<string, number>>();
    for (const s of stats.byToolStatus) byTool.set(s.tool, { ...(byTool.get(s.tool) ?? {}), [s.status]: s.count });
    const statuses = ['pending', 'running', 'complete', 'failed', 'cancelled'];
    const body = html`<p class="stats">
        <span>Queue depth: <strong id="queue-depth">${stats.queueDepth}</strong></span> <span>Running: <strong>${stats.running}</strong></span>
      </p>
      <section class="charts" aria-label="Last ${WINDOW_MINUTES} minutes">
        ${CHARTS.map(
          (c) =>
            html`<figure class="chart">
              <figcaption id="${c.id}-title">${c.title}</figcaption>
              <div id="${c.id}" role="img" aria-labelledby="${c.id}-title"></div>
            </figure>`,
        )}
      </section>
      <table>
        <caption>
          Tasks kept, by tool and status
        </caption>
        <thead>
          <tr>
            <th scope="col">Tool</th>
            ${statuses.map((s) => html`<th scope="col">${s}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${[...byTool.entries()].sort().map(
            ([tool, counts]) =>
              html`<tr>
                <td><a href="/console/tasks?tool=${encodeURIComponent(tool)}">${tool}</a></td>
                ${statuses.map((s) => html`<td>${counts[s] ?? 0}</td>`)}
              </tr>`,
          )}
        </tbody>
      </table>`;
    const head = html`<link rel="stylesheet" href="/console/assets/vendor/uPlot.min.css" />
      <script src="/console/assets/vendor/uPlot.iife.min.js" defer></script>`;
    res.type('html').send(page({ title: 'Overview', current: '/console', csrf: d.secrets.csrfToken(req.consoleSession!), body, head }));
  });
  return r;
}
