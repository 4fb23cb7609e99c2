// Webhook options on the doors whose call has no free-form body beside the tool's input: MCP (tools/call
// `_meta`) and A2A (SendMessage `metadata`, of the request or of its message). The tool's input schema is
// strict and advertised, so the options do not go into the arguments; both protocols have a metadata
// object for what the service (not the tool) is asked. Checked exactly as REST checks them
// (src/webhooks/options.ts): the same 400 sentences naming `webhook_url` or `webhook_events`.
import type { Engine } from '../engine/engine.js';
import { netGuardService } from '../net/guard.js';
import type { TaskWebhook } from '../store/task-row.js';
import { needsApiKey, parseWebhookOptions, topicOfTool } from './options.js';

/** The options of the first carrier (`chargeKeyId`: the caller's API key, which signs them) (object) that names either one; the others are not looked at. */
export async function webhookBesideCall(carriers: unknown[], tool: string, chargeKeyId: string | undefined, engine: Engine): Promise<TaskWebhook | null> {
  const carrier = carriers.find(
    (c): c is Record<string, unknown> => c !== null && typeof c === 'object' && (Object.hasOwn(c, 'webhook_url') || Object.hasOwn(c, 'webhook_events')),
  );
  if (!carrier) return null;
  const webhook = parseWebhookOptions(
    { webhook_url: carrier.webhook_url, webhook_events: carrier.webhook_events },
    topicOfTool(tool),
    await engine.scope.use(netGuardService),
  );
  // Signed with the creating key's secret: a local (uncharged) caller has none.
  if (webhook && !chargeKeyId) throw needsApiKey();
  return webhook;
}
