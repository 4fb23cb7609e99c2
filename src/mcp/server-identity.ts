// What the 2025-era server says about itself in its `initialize` answer: its name and capabilities. A leaf
// with no SDK import, so stdio can answer `initialize` before the SDK loads (early-initialize.ts) with the
// very values the SDK server is built with (server.ts).
import { VERSION } from '../version.js';

export const SERVER_INFO = { name: 'agent-utility', title: 'agent-utility', version: VERSION };

/** prompts, completion/complete and logging/setLevel (assist-handlers.ts installs them). */
export const ASSIST_CAPABILITIES = { prompts: { listChanged: false }, completions: {}, logging: {} } as const;

export const LEGACY_CAPABILITIES = {
  tools: { listChanged: false },
  resources: {},
  tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
  ...ASSIST_CAPABILITIES,
};
