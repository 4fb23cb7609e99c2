// The browser pool's counters for /metrics (TaskMetrics.addCollector): launches, browsers that died
// (crashed or killed) and pages whose renderer crashed. Read from the pool of this process only, and
// only once a task has started it: a scrape never launches Chromium.
import type { PoolStats } from './pool.js';

export function renderBrowserMetrics(stats: PoolStats | undefined): string {
  if (!stats) return '';
  return [
    '# HELP agent_utility_browser_launches_total Chromium launches (the first, relaunches after a crash, and planned replacements).',
    '# TYPE agent_utility_browser_launches_total counter',
    `agent_utility_browser_launches_total ${stats.launches}`,
    '# HELP agent_utility_browser_crashes_total Chromium processes that went away unasked (crashed or killed).',
    '# TYPE agent_utility_browser_crashes_total counter',
    `agent_utility_browser_crashes_total ${stats.crashes}`,
    '# HELP agent_utility_browser_page_crashes_total Pages whose renderer crashed during a task (memory, killed).',
    '# TYPE agent_utility_browser_page_crashes_total counter',
    `agent_utility_browser_page_crashes_total ${stats.crashedPages}`,
  ].join('\n');
}
