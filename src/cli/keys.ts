// `agent-utility keys …`: create, list, credit and revoke prepaid API keys.
import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import { createApiKey, findApiKey } from '../billing/api-keys.js';
import { microsToUsd } from '../registry/registry.js';
import { openStore } from '../db/tasks/open-store.js';
import type { ApiKeyRow, TaskStore } from '../store/port.js';
import { CliUsageError, parseUsdArg } from './usage.js';

function view(k: ApiKeyRow) {
  return {
    id: k.id,
    prefix: k.prefix,
    label: k.label,
    balance_usd: microsToUsd(k.balanceMicros),
    created_at: new Date(k.createdAt).toISOString(),
    revoked_at: k.revokedAt ? new Date(k.revokedAt).toISOString() : null,
  };
}

async function resolveKey(store: TaskStore, ref: string | undefined): Promise<ApiKeyRow> {
  if (!ref) throw new CliUsageError('Name the key: its id (key_…), its prefix (sk_live_xxxxxx) or the whole key.');
  const key = ref.length > 20 && ref.startsWith('sk_') ? await findApiKey(store, ref) : await store.findKey(ref);
  if (!key) throw new CliUsageError(`No key matches "${ref}".`);
  return key;
}

export async function runKeysCommand(config: Config, args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { credits: { type: 'string' }, label: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const out = (text: string) => process.stdout.write(`${text}\n`);
  const store = await openStore(config);
  try {
    switch (sub) {
      case 'create': {
        const credits = parseUsdArg(values.credits, '--credits');
        const { key, row } = await createApiKey(store, { creditsMicros: credits, label: values.label ?? null });
        out(values.json ? JSON.stringify({ key, ...view(row) }) : key);
        return 0;
      }
      case 'list': {
        const keys = (await store.listKeys()).map(view);
        if (values.json) out(JSON.stringify(keys));
        else if (keys.length === 0) out('No keys yet. Create one with: agent-utility keys create --credits 10');
        else for (const k of keys) out(`${k.id}  ${k.prefix}…  ${k.balance_usd} USD  ${k.revoked_at ? 'revoked' : 'active'}  ${k.label ?? ''}`.trimEnd());
        return 0;
      }
      case 'credit': {
        const key = await resolveKey(store, positionals[0]);
        const amount = parseUsdArg(positionals[1], 'The amount');
        const row = await store.creditKey(key.id, amount, 'operator credit', Date.now());
        out(values.json ? JSON.stringify(view(row!)) : `${key.id} now has ${microsToUsd(row!.balanceMicros)} USD`);
        return 0;
      }
      case 'revoke': {
        const key = await resolveKey(store, positionals[0]);
        const row = await store.revokeKey(key.id, Date.now());
        out(values.json ? JSON.stringify(view(row!)) : `${key.id} revoked`);
        return 0;
      }
      default:
        throw new CliUsageError('Usage: agent-utility keys create|list|credit|revoke (see agent-utility help).');
    }
  } finally {
    await store.close();
  }
}
