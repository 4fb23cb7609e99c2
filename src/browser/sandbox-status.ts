// This process's Chromium sandbox decision, made once (the try spawns a process) and said once: logged at
// start, and shown on /healthz and /metrics by the front doors (server/front-doors.ts). Every browser
// runtime of the process uses the same decision.
import type { Logger } from '../logger.js';
import { decideSandbox, type SandboxDecision, type SandboxSetting } from './sandbox-decision.js';
import { gatherSandboxFacts } from './sandbox-facts.js';

let decided: { key: string; decision: SandboxDecision } | undefined;

export function browserSandboxDecision(o: { setting: SandboxSetting; uid: number }, log?: Logger): SandboxDecision {
  const key = `${o.setting}:${o.uid}`;
  if (decided?.key === key) return decided.decision;
  const decision = decideSandbox(gatherSandboxFacts(o));
  decided = { key, decision };
  const fields = { sandbox: decision.enabled, reason: decision.reason, ...(decision.runAsUid !== undefined ? { uid: decision.runAsUid } : {}) };
  if (decision.enabled) log?.info('Chromium sandbox on', fields);
  // Off by the operator's choice is information; off because this machine cannot is worth a look.
  else if (o.setting === 'off') log?.info('Chromium sandbox off', fields);
  else log?.warn('Chromium sandbox off (docs/network.md says what isolates pages then)', fields);
  return decision;
}

/** /metrics: 1 with the sandbox, 0 without, and why as a label. */
export function renderSandboxMetric(d: SandboxDecision | undefined): string {
  if (!d) return '';
  const reason = d.reason.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
  return [
    '# HELP agent_utility_browser_sandbox Whether Chromium runs with its sandbox in this process (1) or not (0), and why.',
    '# TYPE agent_utility_browser_sandbox gauge',
    `agent_utility_browser_sandbox{reason="${reason}"} ${d.enabled ? 1 : 0}`,
  ].join('\n');
}
