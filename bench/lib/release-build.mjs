// Builds an earlier commit of this repository into a temp folder (git archive + tsc, sharing this checkout's
// node_modules), so a benchmark can run it side by side with this tree in one run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, tempDir } from './processes.mjs';

/** Builds `ref` into a temp folder; its node_modules is this checkout's (the dependencies it needs are a subset for these tools). */
export function buildRelease(ref) {
  const dir = tempDir(`au-release-${ref}-`);
  const tar = execFileSync('git', ['-C', ROOT, 'archive', '--format=tar', ref], { maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'ignore' });
  execFileSync(process.execPath, ['scripts/copy-assets.mjs'], { cwd: dir, stdio: 'ignore' });
  const commit = execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', ref]).toString().trim();
  return { label: `release ${commit}`, cli: path.join(dir, 'dist/src/cli.js'), cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
