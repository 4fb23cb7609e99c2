// What `call` and `batch` tell a person who names a tool: its fields (`call <tool> --help`), and the dotted
// name when they typed the MCP one (`dns_lookup` → `dns.lookup`) or a near miss.
import type { AnyTool } from '../registry/define-tool.js';
import { jsonSchemaOf } from '../registry/registry.js';
import { CliUsageError } from './usage.js';

interface FieldSchema {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  default?: unknown;
  anyOf?: FieldSchema[];
}

async function localTools(): Promise<AnyTool[]> {
  return (await import('../../tools/index.js')).tools;
}

/** Throws a usage error naming the tool meant, when `name` is not a tool but an MCP name or a near miss of one. */
export async function checkToolName(name: string): Promise<void> {
  const tools = await localTools();
  const names = tools.map((t) => t.name);
  if (names.includes(name)) return;
  const dotted = names.find((n) => n.replace(/\./g, '_') === name || n.toLowerCase() === name.toLowerCase());
  if (dotted)
    throw new CliUsageError(`Unknown tool "${name}". Did you mean "${dotted}"? (MCP clients see it as ${dotted.replace(/\./g, '_')}; call takes ${dotted}.)`);
  // Otherwise the service says which tools it knows (a remote one may have others).
}

/** The fields of `name` as a person reads them, or undefined when this build does not know the tool. */
export async function toolHelp(name: string): Promise<string | undefined> {
  const tool = (await localTools()).find((t) => t.name === name);
  if (!tool) return undefined;
  const schema = jsonSchemaOf(tool.input, 'input') as { properties?: Record<string, FieldSchema>; required?: string[] };
  const required = new Set(schema.required ?? []);
  const typeOf = (f: FieldSchema): string =>
    f.enum ? f.enum.map((v) => JSON.stringify(v)).join(' | ') : f.anyOf ? f.anyOf.map(typeOf).join(' | ') : [f.type ?? 'any'].flat().join(' | ');
  const lines = [`${tool.name}: ${tool.description.split('\n')[0]}`, '', 'Fields:'];
  for (const [field, f] of Object.entries(schema.properties ?? {})) {
    const extra = [required.has(field) ? 'required' : 'optional', f.default !== undefined ? `default ${JSON.stringify(f.default)}` : '']
      .filter(Boolean)
      .join(', ');
    lines.push(`  --${field} <${typeOf(f)}>  (${extra})${f.description ? `\n      ${f.description}` : ''}`);
  }
  const example = (tool as { example?: unknown }).example;
  if (example && typeof example === 'object') {
    const args = Object.entries(example as Record<string, unknown>)
      .filter(([, v]) => typeof v !== 'object' || v === null)
      .map(([k, v]) => `--${k} ${typeof v === 'string' && /\s/.test(v) ? JSON.stringify(v) : String(v)}`);
    lines.push('', `Example: agent-utility call ${tool.name} ${args.join(' ')}`);
  }
  lines.push("Nested or list fields: --json '{…}'. The result is printed as JSON (a file with --out).");
  return lines.join('\n');
}
