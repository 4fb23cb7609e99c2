#!/usr/bin/env node
// Runs the benchmarks (every bench/*.bench.mjs, or the names given) one after another and writes
// their sections into bench/RESULTS.md. Sections of benchmarks not run this time are kept as they were.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const resultsPath = path.join(dir, 'RESULTS.md');
const wanted = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => wanted.length === 0 || wanted.includes(f.replace('.bench.mjs', '')))
  .sort();
if (files.length === 0) {
  process.stderr.write(`no benchmark matches ${wanted.join(', ')}\n`);
  process.exit(2);
}

const sections = new Map();
if (fs.existsSync(resultsPath)) {
  const text = fs.readFileSync(resultsPath, 'utf8');
  for (const m of text.matchAll(/<!-- bench:(\S+) -->\n([\s\S]*?)<!-- \/bench:\1 -->/g)) sections.set(m[1], m[2]);
}

const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`;
let failed = 0;
for (const file of files) {
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)).default;
  process.stderr.write(`\n== ${mod.name}: ${mod.title}\n`);
  const started = Date.now();
  try {
    const markdown = await mod.run();
    const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
    sections.set(mod.name, `## ${mod.title}\n\n_Run ${when} UTC on ${machine}; took ${Math.round((Date.now() - started) / 1000)} s._\n\n${markdown.trim()}\n`);
    process.stderr.write(`${markdown.trim()}\n`);
  } catch (err) {
    failed++;
    process.stderr.write(`benchmark ${mod.name} failed: ${err?.stack ?? err}\n`);
  }
}

const order = [...sections.keys()].sort();
const body = order.map((name) => `<!-- bench:${name} -->\n${sections.get(name)}<!-- /bench:${name} -->`).join('\n\n');
fs.writeFileSync(
  resultsPath,
  `# Benchmark results\n\nWritten by \`npm run bench\` (\`node bench/run.mjs [name…]\`). Every figure compares against a baseline measured in the same run on the same machine; no figure here is asserted by a test.\n\n${body}\n`,
);
process.stderr.write(`\nwrote ${path.relative(process.cwd(), resultsPath)}\n`);
process.exit(failed > 0 ? 1 : 0);
