// MCP result size: the characters of one tools/call answer (the JSON-RPC result as sent) of every text
// tool (browser.content, .markdown, .links, .scrape) on generated article pages of about 5 KB, 1 MB and
// 10 MB, from this build and from a baseline build of BASELINE_REF (default: where this branch left main,
// `git merge-base HEAD main`, built from `git archive` into node_modules/.cache with this checkout's
// node_modules), both over MCP stdio in the same run.
// Loopback only: the pages come from a local server; each build is the CLI in a child process.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, ROOT, tempDir } from './lib/processes.mjs';

const BASELINE_REF = process.env.BASELINE_REF ?? execFileSync('git', ['merge-base', 'HEAD', 'main'], { cwd: ROOT, encoding: 'utf8' }).trim();
const SIZES = [
  ['5 KB', 5_000],
  ['1 MB', 1_000_000],
  // browser.content refuses rendered HTML over 10 MB, so the largest page stays just under it.
  ['10 MB', 9_800_000],
];
const TOOLS = [
  ['browser_content', {}],
  ['browser_markdown', {}],
  ['browser_links', {}],
  ['browser_scrape', { select: { body: 'body', paragraphs: 'p' } }],
];

/** Headed sections of prose with a link each, about `bytes` bytes (as test/support/big-pages.ts). */
function articleHtml(bytes) {
  const sections = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const words = Array.from({ length: 120 }, (_, w) => `word${(i * 7 + w) % 997}`).join(' ');
    const section = `<section><h2>Section ${i}</h2><p>${words}.</p><p>Second paragraph of section ${i}, with <a href="/s/${i}">a link to part ${i}</a> and café ✓ text.</p></section>\n`;
    sections.push(section);
    size += Buffer.byteLength(section);
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Article</title></head><body><main><article><h1>Article</h1>${sections.join('')}</article></main></body></html>`;
}

/** The baseline's built CLI: `git archive REF` compiled next to this checkout's node_modules. */
function buildBaseline() {
  const sha = execFileSync('git', ['rev-parse', BASELINE_REF], { cwd: ROOT, encoding: 'utf8' }).trim();
  const dir = path.join(ROOT, 'node_modules/.cache/agent-utility-bench', `baseline-${sha.slice(0, 12)}`);
  const cli = path.join(dir, 'dist/src/cli.js');
  if (!fs.existsSync(cli)) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('sh', ['-c', `git archive ${sha} | tar -x -C "${dir}"`], { cwd: ROOT });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'inherit' });
    execFileSync(process.execPath, ['scripts/copy-assets.mjs'], { cwd: dir, stdio: 'inherit' });
  }
  return { cli, sha };
}

async function connect(cli, env) {
  const client = new Client({ name: 'bench-result-size', version: '1' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp'], env: { ...process.env, ...env, DATA_DIR: tempDir() }, stderr: 'ignore' }),
  );
  return client;
}

const kchars = (n) => (n >= 10_000 ? `${Math.round(n / 1000).toLocaleString('en-US')}k` : n.toLocaleString('en-US'));

export default {
  name: 'mcp-result-size',
  title: 'MCP tools/call answer size of the text tools (bounded results, issue 28)',
  async run() {
    const pages = new Map(SIZES.map(([, bytes]) => [bytes, articleHtml(bytes)]));
    const server = http.createServer((req, res) => {
      const bytes = Number(new URL(req.url, 'http://x').searchParams.get('bytes'));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages.get(bytes) ?? '');
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    const port = server.address().port;
    const env = { NETWORK_ALLOWLIST: '127.0.0.1/32', LOG_LEVEL: 'warn', LEADS_PORT: '0', SECRET: 's'.repeat(40) };
    const baseline = buildBaseline();
    const builds = [
      ['before', baseline.cli],
      ['after', CLI],
    ];
    const rows = [];
    try {
      for (const [label, cli] of builds) {
        const client = await connect(cli, env);
        try {
          for (const [sizeName, bytes] of SIZES) {
            for (const [tool, args] of TOOLS) {
              const url = `http://127.0.0.1:${port}/article?bytes=${bytes}&${label}-${tool}`;
              let cell;
              try {
                const result = await client.callTool({ name: tool, arguments: { url, ...args } }, undefined, { timeout: 180_000 });
                const chars = JSON.stringify(result).length;
                const s = result.structuredContent ?? {};
                cell = result.isError ? `error: ${String(result.content?.[0]?.text ?? '').slice(0, 60)}` : kchars(chars);
                if (!result.isError && s.truncated) cell += ` (part of ${kchars(s.total_chars)})`;
                rows.push({ label, sizeName, tool, chars: result.isError ? null : chars, cell });
              } catch (err) {
                rows.push({ label, sizeName, tool, chars: null, cell: `error: ${String(err?.message ?? err).slice(0, 60)}` });
              }
              process.stderr.write(`${label} ${sizeName} ${tool}: ${rows.at(-1).cell}\n`);
            }
          }
        } finally {
          await client.close();
        }
      }
    } finally {
      server.close();
    }
    const cell = (label, sizeName, tool) => rows.find((r) => r.label === label && r.sizeName === sizeName && r.tool === tool)?.cell ?? '—';
    const lines = [
      `Characters of the whole tools/call result (text block + structuredContent + links) with default inputs, over MCP stdio. ` +
        `Before: main at ${baseline.sha.slice(0, 9)}; after: this build (max_chars default 20,000; the rest is read from the stored task). ` +
        `"part of N" is the total_chars of the whole text. Goal: no answer over 100,000 characters.`,
      '',
      `| page | tool | before | after |`,
      `|---|---|---:|---:|`,
      ...SIZES.flatMap(([sizeName]) =>
        TOOLS.map(([tool]) => `| ${sizeName} | ${tool} | ${cell('before', sizeName, tool)} | ${cell('after', sizeName, tool)} |`),
      ),
    ];
    const largestAfter = Math.max(...rows.filter((r) => r.label === 'after' && r.chars !== null).map((r) => r.chars));
    lines.push('', `Largest answer after: ${largestAfter.toLocaleString('en-US')} characters.`);
    return lines.join('\n');
  },
};
