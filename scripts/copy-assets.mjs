// Copies non-TypeScript assets that the compiled code loads at run time (SQL migrations, the console's
// browser files) into dist/.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const exts = new Set(['.sql']);
let copied = 0;
function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (exts.has(path.extname(entry.name))) {
      const target = path.join(root, 'dist', path.relative(root, full));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(full, target);
      copied++;
    }
  }
}
// A migration merged or removed in src must not linger in dist, where the runner would apply it.
function removeCopies(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) removeCopies(full);
    else if (exts.has(path.extname(entry.name))) fs.rmSync(full);
  }
}
for (const top of ['src', 'tools']) if (fs.existsSync(path.join(root, 'dist', top))) removeCopies(path.join(root, 'dist', top));
for (const top of ['src', 'tools']) if (fs.existsSync(path.join(root, top))) walk(path.join(root, top));
// The console's browser files (script, stylesheet) are served as they are.
const consoleAssets = path.join(root, 'src', 'console', 'assets');
for (const name of fs.readdirSync(consoleAssets)) {
  const target = path.join(root, 'dist', 'src', 'console', 'assets', name);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(path.join(consoleAssets, name), target);
  copied++;
}
process.stdout.write(`copied ${copied} asset file(s) into dist/\n`);
