// What an A2A message asks for: a data part {"tool": "<name>", "input": {…}} (a text part holding that
// JSON is accepted too, for text-only clients). Tool names may be dotted names (dns.lookup) or MCP names
// (dns_lookup).
import type { Message } from '@a2a-js/sdk';
import type { ToolRegistry } from '../registry/registry.js';
import { mcpNameIndex } from '../registry/tool-names.js';

export interface ToolCall {
  tool: string;
  input: unknown;
}

export class MessageNotUnderstood extends Error {}

export function toolCallOf(message: Message | undefined, registry: ToolRegistry): ToolCall {
  const usage = `Send a message with a data part {"tool": "<name>", "input": {…}}; tools: ${registry.names.join(', ')}.`;
  if (!message) throw new MessageNotUnderstood(`The request has no message. ${usage}`);
  for (const part of message.parts) {
    const content = part.content;
    let value: unknown;
    if (content?.$case === 'data') value = content.value;
    else if (content?.$case === 'text') value = parseJsonObject(content.value);
    if (typeof value !== 'object' || value === null || !('tool' in value)) continue;
    const { tool, input } = value as { tool: unknown; input?: unknown };
    if (typeof tool !== 'string') throw new MessageNotUnderstood(`"tool" must be a string. ${usage}`);
    const name = registry.has(tool) ? tool : mcpNameIndex(registry).get(tool);
    if (!name) throw new MessageNotUnderstood(`Unknown tool "${tool}". ${usage}`);
    return { tool: name, input: input ?? {} };
  }
  throw new MessageNotUnderstood(`The message names no tool. ${usage}`);
}

function parseJsonObject(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}
