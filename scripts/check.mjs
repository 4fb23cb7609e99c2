#!/usr/bin/env node
// `npm run check`: the type check, eslint, prettier, the README tool table and the import-cycle check. They
// read the tree and write nothing, so they run side by side (on two cores the three slow ones, one after
// another, were two minutes of CI); each one's output is printed whole once it ends, and the check fails
// when any of them does, naming it.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const CHECKS = [
  { name: 'typecheck (tsc)', cmd: bin('tsc'), args: ['-p', 'tsconfig.json', '--noEmit'] },
  { name: 'lint (eslint)', cmd: bin('eslint'), args: ['.'] },
  { name: 'format (prettier)', cmd: bin('prettier'), args: ['--check', '.'] },
  { name: 'README tool table', cmd: process.execPath, args: [path.join(root, 'scripts', 'readme-tools.mjs'), '--check'] },
  { name: 'import cycles', cmd: process.execPath, args: [path.join(root, 'scripts', 'check-cycles.mjs')] },
];

function run({ name, cmd, args }) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => out.push(c));
    child.on('error', (err) => resolve({ name, code: 1, text: `${err.message}\n` }));
    child.on('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), text: Buffer.concat(out).toString() }));
  });
}

const results = await Promise.all(
  CHECKS.map((c) => run(c).then((r) => (process.stdout.write(`== ${r.name}: ${r.code === 0 ? 'ok' : `failed (exit ${r.code})`}\n${r.text}`), r))),
);
const failed = results.filter((r) => r.code !== 0);
if (failed.length > 0) {
  process.stderr.write(`check failed: ${failed.map((r) => r.name).join(', ')}\n`);
  process.exit(1);
}
