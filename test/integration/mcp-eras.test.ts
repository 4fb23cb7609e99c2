// Both MCP eras over streamable HTTP, against the real service on an ephemeral port: the v1 SDK client
// (2025-11-25, initialize) and the v2 SDK client pinned to 2026-07-28 and in auto mode (server/discover
// probe) each list the tools, call every tool of the test set, get errors as tool results, cancel a
// running call, receive progress and log messages, and complete a prompt argument.
import { afterAll, beforeAll, describe } from 'vitest';
import homeservicesSearch from '../../tools/homeservices.search.js';
import { connectEraClient, CLIENT_KINDS, type EraClient } from '../support/mcp-era-clients.js';
import { startMcpService, type McpTestService } from '../support/mcp-service.js';
import { mcpTestTools } from '../support/mcp-test-tools.js';
import { testTools } from '../support/test-tools.js';
import { eraScenarios, everyToolScenario, TEST_SET_CALLS, TEST_SET_PROFILE } from '../support/mcp-era-scenarios.js';

let svc: McpTestService;
let key: string;

beforeAll(async () => {
  svc = await startMcpService({}, { tools: [...testTools, ...mcpTestTools, homeservicesSearch] });
  ({ key } = await svc.createKey(5));
});

afterAll(async () => {
  await svc?.close();
});

describe.each(CLIENT_KINDS)('streamable HTTP, %s client', (kind) => {
  let client: EraClient;
  beforeAll(async () => {
    client = await connectEraClient(kind, { http: svc.mcpUrl, headers: { authorization: `Bearer ${key}` } });
  });
  afterAll(async () => {
    await client?.close();
  });
  // homeservices.search is registered for its prompt (find_home_service, completed below); no lead service
  // runs beside this in-process service, so its call must fail with the sentence saying so.
  everyToolScenario(() => client, {
    ...TEST_SET_CALLS,
    homeservices_search: { args: { service: 'plumber', zip: '10001' }, error: /lead service is not configured/ },
  });
  eraScenarios(() => client, TEST_SET_PROFILE);
});
