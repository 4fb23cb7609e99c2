// `agent-utility admin login`: prints a one-time console sign-in link (absolute, from PUBLIC_URL). It is
// signed with ADMIN_TOKEN, so the server accepts it without this process telling it anything; the first
// visit uses it up.
import type { Config } from '../config.js';
import { ConsoleSecrets, LINK_TTL_MS } from '../console/session.js';
import { CliUsageError } from './usage.js';

export async function runAdminCommand(config: Config, args: string[]): Promise<number> {
  const [sub] = args;
  if (sub !== 'login') throw new CliUsageError('Usage: agent-utility admin login   (prints a one-time console sign-in link)');
  if (!config.adminToken) {
    process.stderr.write('ADMIN_TOKEN is not set: the console is off. Set ADMIN_TOKEN (the same value the server uses).\n');
    return 2;
  }
  const token = new ConsoleSecrets(config.adminToken).newLinkToken(Date.now());
  process.stdout.write(`${config.publicUrl}/console/login/link?token=${encodeURIComponent(token)}\n`);
  process.stderr.write(`The link works once, within ${LINK_TTL_MS / 60_000} minutes.\n`);
  return 0;
}
