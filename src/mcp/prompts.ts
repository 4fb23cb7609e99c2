// Prompts: ready-made requests that chain our tools. They exist mostly so that arguments with a closed
// vocabulary (service category, record type, format, paper size, wait mode) can be completed: MCP offers
// completion/complete only for prompt arguments and resource template variables, never for tool arguments.
// A prompt is listed only when every tool it names is exposed (the operator's allowlist).
import { ErrorCode, type GetPromptResult, type Prompt } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRegistry } from '../registry/registry.js';
import { mcpToolName } from '../registry/tool-names.js';
// rpcError, not new McpError: the SDK's constructor writes "MCP error -32602:" into the message sent, and
// clients add that prefix again when they print it.
import { rpcError } from './errors.js';
import { DNS_RECORD_TYPES, PDF_PAPER_SIZES, SCREENSHOT_FORMATS, SERVICE_WORDS, WAIT_MODES } from './vocabularies.js';

interface PromptArgument {
  name: string;
  description: string;
  required?: boolean;
  /** Values completion/complete offers for this argument. */
  vocabulary?: readonly string[];
  /** The vocabulary is only suggestions: the tool also understands other words (service synonyms). */
  openVocabulary?: boolean;
}

interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  tools: readonly string[];
  arguments: readonly PromptArgument[];
  text: (args: Record<string, string>) => string;
}

const or = (value: string | undefined, fallback: string) => (value && value.trim() ? value.trim() : fallback);

const PROMPTS: readonly PromptDefinition[] = [
  {
    name: 'audit_url',
    title: 'Audit a web page',
    description: 'Checks a URL: its HTTP status and redirects, a screenshot, and the links on the page.',
    tools: ['url.status', 'browser.screenshot', 'browser.links'],
    arguments: [
      { name: 'url', description: 'The page to audit (http or https).', required: true },
      { name: 'wait', description: 'When the page counts as ready: load, dom or idle.', vocabulary: WAIT_MODES },
      { name: 'format', description: 'Screenshot format: png, jpeg or webp.', vocabulary: SCREENSHOT_FORMATS },
    ],
    text: (a) =>
      `Audit the web page ${a.url}. ` +
      `1. Call url_status with {"url": ${JSON.stringify(a.url)}} and report the final status code and any redirects. ` +
      `2. Call browser_screenshot with {"url": ${JSON.stringify(a.url)}, "wait": "${or(a.wait, 'load')}", "format": "${or(a.format, 'png')}"} and describe what the page shows. ` +
      `3. Call browser_links with {"url": ${JSON.stringify(a.url)}, "wait": "${or(a.wait, 'load')}"} and list broken-looking or external links. ` +
      'Finish with a short summary of problems found.',
  },
  {
    name: 'find_home_service',
    title: 'Find a home-service professional',
    description: 'Finds local professionals for a service (plumber, electrician, hvac, ...) near a US ZIP code.',
    tools: ['homeservices.search'],
    arguments: [
      {
        name: 'service',
        description: 'The service needed: a category such as plumber, or an everyday word such as "leaky faucet".',
        required: true,
        vocabulary: SERVICE_WORDS,
        openVocabulary: true,
      },
      { name: 'zip', description: 'Five-digit US ZIP code.', required: true },
    ],
    text: (a) =>
      `Find ${a.service} professionals near ZIP ${a.zip}: call homeservices_search with {"service": ${JSON.stringify(a.service)}, "zip": ${JSON.stringify(a.zip)}} ` +
      'and present the results with name, rating and phone. Do not request a quote unless I ask.',
  },
  {
    name: 'dns_check',
    title: 'Check a domain’s DNS',
    description: 'Looks up a domain’s DNS records and explains them.',
    tools: ['dns.lookup'],
    arguments: [
      { name: 'domain', description: 'The domain, e.g. example.com.', required: true },
      { name: 'record_type', description: 'A, AAAA, MX, TXT, NS, CNAME, SOA, SRV, CAA or ALL (default).', vocabulary: DNS_RECORD_TYPES },
    ],
    text: (a) =>
      `Call dns_lookup with {"domain": ${JSON.stringify(a.domain)}, "record_type": "${or(a.record_type, 'ALL')}"} ` +
      'and explain the records: where mail goes, who hosts the site, and anything that looks misconfigured.',
  },
  {
    name: 'save_page_pdf',
    title: 'Save a web page as PDF',
    description: 'Prints a web page to PDF on the chosen paper size.',
    tools: ['browser.pdf'],
    arguments: [
      { name: 'url', description: 'The page to print (http or https).', required: true },
      { name: 'size', description: 'Paper size: letter, a4, legal, a3 or a5.', vocabulary: PDF_PAPER_SIZES },
      { name: 'wait', description: 'When the page counts as ready: load, dom or idle.', vocabulary: WAIT_MODES },
    ],
    text: (a) =>
      `Call browser_pdf with {"url": ${JSON.stringify(a.url)}, "size": "${or(a.size, 'letter')}", "wait": "${or(a.wait, 'load')}"} ` +
      'and give me the resource link to the PDF.',
  },
];

export class PromptCatalog {
  private readonly prompts: readonly PromptDefinition[];

  constructor(registry: ToolRegistry) {
    const exposed = new Set(registry.names);
    this.prompts = PROMPTS.filter((p) => p.tools.every((t) => exposed.has(t)));
  }

  list(): Prompt[] {
    return this.prompts.map((p) => ({
      name: p.name,
      title: p.title,
      description: `${p.description} Uses ${p.tools.map(mcpToolName).join(', ')}.`,
      arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required ?? false })),
    }));
  }

  get(name: string, args: Record<string, string> = {}): GetPromptResult {
    const p = this.find(name);
    const missing = p.arguments.filter((a) => a.required && !args[a.name]?.trim()).map((a) => a.name);
    if (missing.length) throw rpcError(ErrorCode.InvalidParams, `Prompt "${name}" needs ${missing.join(', ')}.`);
    for (const a of p.arguments) {
      const value = args[a.name]?.trim();
      if (value && a.vocabulary && !a.openVocabulary && !a.vocabulary.includes(value)) {
        throw rpcError(ErrorCode.InvalidParams, `Prompt "${name}": ${a.name} must be one of ${a.vocabulary.join(', ')} (got ${JSON.stringify(value)}).`);
      }
    }
    return { description: p.description, messages: [{ role: 'user', content: { type: 'text', text: p.text(args) } }] };
  }

  /** The vocabulary of one prompt argument; undefined for free text (url, zip, domain). */
  vocabularyOf(promptName: string, argument: string): readonly string[] | undefined {
    return this.find(promptName).arguments.find((a) => a.name === argument)?.vocabulary;
  }

  private find(name: string): PromptDefinition {
    const p = this.prompts.find((x) => x.name === name);
    if (!p) throw rpcError(ErrorCode.InvalidParams, `Unknown prompt "${name}". Available prompts: ${this.prompts.map((x) => x.name).join(', ') || 'none'}.`);
    return p;
  }
}
