// `agent-utility call <tool> --field value … | --json '{…}'`: one task, its result JSON on stdout (or, with
// --out, in a file: a screenshot or PDF as its bytes), a spinner with the status on stderr when that is a
// terminal. Against AGENT_UTILITY_URL with AGENT_UTILITY_KEY, or, with neither set, an embedded engine on
// the local data directory. Exit 0 complete, 1 failed, 2 usage.
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { createLogger } from '../logger.js';
import { isReservedKey } from '../registry/reserved-keys.js';
import { downloadArtifact, saveResult, type ArtifactRef } from './save-output.js';
import { statusSpinner, type StatusSpinner } from './terminal-status.js';
import { checkToolName, toolHelp } from './tool-help.js';
import { CliUsageError } from './usage.js';

export function parseFieldArgs(args: readonly string[]): { input: Record<string, unknown>; out: string | undefined } {
  let input: Record<string, unknown> = {};
  let out: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const name = args[i]!;
    const value = args[i + 1];
    if (!name.startsWith('--') || value === undefined) throw new CliUsageError(`Expected --field value pairs, got "${name}" without a value.`);
    i++;
    if (name === '--json') {
      try {
        input = { ...input, ...(JSON.parse(value) as Record<string, unknown>) };
      } catch {
        throw new CliUsageError('--json must be a JSON object.');
      }
    } else if (name === '--out') out = value;
    else setPath(input, name.slice(2).split('.'), scalar(value));
  }
  return { input, out };
}

/** Numbers and booleans as such, anything else as text (quote it in --json to force text). */
function scalar(v: string): unknown {
  if (v === 'true' || v === 'false') return v === 'true';
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(v)) return Number(v);
  return v;
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  // --__proto__.x would otherwise write Object.prototype.x (see registry/reserved-keys.ts).
  if (path.some(isReservedKey)) throw new CliUsageError(`--${path.join('.')}: __proto__, prototype and constructor cannot name a field.`);
  let t = target;
  for (const k of path.slice(0, -1)) {
    const next = Object.hasOwn(t, k) ? t[k] : undefined;
    t = (next !== null && typeof next === 'object' ? next : (t[k] = {})) as Record<string, unknown>;
  }
  t[path[path.length - 1]!] = value;
}

export interface CallOutcome {
  status: string;
  result: unknown;
  error: string | null;
}

export async function runCall(config: Config, args: string[]): Promise<number> {
  const [tool, ...rest] = args;
  if (!tool || tool.startsWith('--')) throw new CliUsageError("Usage: agent-utility call <tool> [--field value …] [--json '{…}'] [--out file]");
  await checkToolName(tool);
  if (rest[0] === '--help' || rest[0] === '-h') {
    const help = await toolHelp(tool);
    if (!help) throw new CliUsageError(`This build does not know "${tool}"; the service's /v1/tools lists its fields.`);
    process.stdout.write(`${help}\n`);
    return 0;
  }
  const { input, out } = parseFieldArgs(rest);
  const spinner = statusSpinner();
  let outcome: CallOutcome;
  try {
    // Saved before an embedded engine closes: its artifact store lives only as long as it does.
    const save = async (o: CallOutcome, load: (ref: ArtifactRef) => Promise<Uint8Array>) => {
      if (out && o.status === 'complete') await saveResult(out, o.result, load);
    };
    outcome = config.client.url ? await callRemote(config, tool, input, spinner, save) : await callEmbedded(config, tool, input, spinner, save);
  } finally {
    spinner.stop();
  }
  if (outcome.status !== 'complete') {
    process.stderr.write(`${tool} ${outcome.status}: ${outcome.error ?? 'no reason given'}\n`);
    return 1;
  }
  if (!out) process.stdout.write(`${JSON.stringify(outcome.result, null, 2)}\n`);
  return 0;
}

type Save = (o: CallOutcome, load: (ref: ArtifactRef) => Promise<Uint8Array>) => Promise<void>;

export function clientHeaders(config: Config): Record<string, string> {
  return config.client.key ? { authorization: `Bearer ${config.client.key}` } : {};
}

async function callRemote(config: Config, tool: string, input: unknown, spinner: StatusSpinner, save: Save): Promise<CallOutcome> {
  const base = config.client.url!;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...clientHeaders(config) };
  spinner.update(`${tool}: submitting`);
  const created = await fetch(`${base}/v1/tools/${encodeURIComponent(tool)}/tasks`, { method: 'POST', headers, body: JSON.stringify(input) });
  const body = (await created.json()) as { poll_url?: string; poll_token?: string; error?: string };
  if (created.status === 400 || created.status === 404) throw new CliUsageError(body.error ?? `The service answered ${created.status}.`);
  if (created.status !== 202) return { status: 'failed', result: null, error: body.error ?? `The service answered ${created.status}.` };
  // Accepted: say so at once, then poll with short waits so the spinner follows pending → running.
  spinner.update(`${tool}: ${(body as { status?: string }).status ?? 'pending'}`);
  for (;;) {
    const r = await fetch(`${base}${body.poll_url}?wait=2`, { headers: { authorization: `Bearer ${body.poll_token}` } });
    const task = (await r.json()) as CallOutcome & { error?: string };
    spinner.update(`${tool}: ${task.status}`);
    if (!r.ok) return { status: 'failed', result: null, error: task.error ?? `The service answered ${r.status}.` };
    if (task.status !== 'pending' && task.status !== 'running') {
      await save(task, (ref) => downloadArtifact(base, ref));
      return task;
    }
  }
}

async function callEmbedded(config: Config, tool: string, input: unknown, spinner: StatusSpinner, save: Save): Promise<CallOutcome> {
  const { createRuntime } = await import('../runtime.js');
  const { artifactStoreService } = await import('../artifacts/service.js');
  const rt = await createRuntime(config, { log: createLogger('error'), workers: true, ownTasks: true });
  try {
    rt.engine.start();
    let task = (
      await rt.engine.submit(tool, input, { payer: { kind: 'local', id: 'cli' }, free: true }).catch((err: unknown) => {
        // Unknown tool or bad input is a usage mistake (exit 2), said in the service's own words.
        if (err instanceof AppError && (err.status === 400 || err.status === 404)) throw new CliUsageError(err.message);
        throw err;
      })
    ).task;
    while (task.status === 'pending' || task.status === 'running') {
      spinner.update(`${tool}: ${task.status}`);
      task = (await rt.engine.waitFor(task.id, 1000)) ?? task;
    }
    const outcome = { status: task.status, result: task.result, error: task.error };
    await save(outcome, async (ref) => {
      const stored = await (await rt.scope.use(artifactStoreService)).get(ref.file_id);
      if (!stored) throw new Error(`The artifact ${ref.file_id} is gone.`);
      return stored.body;
    });
    return outcome;
  } finally {
    await rt.close();
  }
}
