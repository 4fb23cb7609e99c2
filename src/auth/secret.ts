// The service secret signs poll tokens and artifact URLs. SECRET wins; otherwise one is generated once
// into DATA_DIR/secret (mode 0600) so tokens survive restarts and every process on the machine agrees.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';

const cache = new Map<string, string>();

export function resolveSecret(config: Config): string {
  if (config.secret) return config.secret;
  const file = path.join(config.dataDir, 'secret');
  const cached = cache.get(file);
  if (cached) return cached;
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    // 'wx' fails if the file exists, so two processes starting at once cannot write different secrets.
    fs.writeFileSync(file, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new Error(`${file} holds a secret shorter than 32 characters; delete it to generate a new one`);
  cache.set(file, secret);
  return secret;
}
