// The A2A agent card (served at /.well-known/agent.json and /.well-known/agent-card.json): a skill per
// tool, the API-key security scheme, v0.3 fields plus v1.0 supportedInterfaces. One document serves both
// protocol versions: v0.3 clients read url/preferredTransport/security and the `type` of each scheme,
// v1.0 clients read supportedInterfaces/securityRequirements and the scheme's `httpAuthSecurityScheme`
// (ProtoJSON ignores the fields it does not know). The /a2a endpoint speaks both (src/a2a/router.ts).
import { priceText, type ToolRegistry } from '../registry/registry.js';

export function buildAgentCard(registry: ToolRegistry, opts: { publicUrl: string; version: string }): Record<string, unknown> {
  const a2aUrl = `${opts.publicUrl}/a2a`;
  return {
    protocolVersion: '0.3.0',
    name: 'agent-utility',
    description:
      'Small, dependable utility tools for agents: e-mail verification, DNS, IP geolocation, geocoding, URL status, headless browser (screenshot, PDF, HTML, Markdown, scraping, links) and home-services leads. Send a message whose data part is {"tool": "<name>", "input": {…}}.',
    url: a2aUrl,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [{ url: a2aUrl, transport: 'JSONRPC' }],
    supportedInterfaces: [
      { url: a2aUrl, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: a2aUrl, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
    version: opts.version,
    documentationUrl: `${opts.publicUrl}/docs`,
    provider: { organization: 'agent-utility', url: opts.publicUrl },
    capabilities: { streaming: false, pushNotifications: false, stateTransitionHistory: false },
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    securitySchemes: {
      apiKey: {
        type: 'http',
        scheme: 'bearer',
        description: 'Prepaid API key (sk_live_…).',
        httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'sk_live_…', description: 'Prepaid API key (sk_live_…).' },
      },
    },
    security: [{ apiKey: [] }],
    securityRequirements: [{ schemes: { apiKey: { list: [] } } }],
    skills: registry.list().map((t) => ({
      id: t.name,
      name: t.title,
      description: `${t.description} Price: ${priceText(t)}.`,
      tags: [t.name.split('.')[0], 'tool'],
      examples: [JSON.stringify({ tool: t.name, input: t.example })],
      inputModes: ['application/json'],
      outputModes: ['application/json'],
    })),
  };
}
