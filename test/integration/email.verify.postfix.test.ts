// email.verify against a real MTA: a private Debian Postfix on a loopback port, final destination for
// pf.test, which knows root (a passwd user) and jane.doe (an alias) and refuses anyone else at RCPT TO.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import tool from '../../tools/email.verify.js';
import { startKnot, type KnotServer } from '../support/knot.js';
import { startPostfix, type PostfixServer } from '../support/postfix.js';
import { makeToolContext, type TestToolContext } from '../support/tool-context.js';

let knot: KnotServer;
let postfix: PostfixServer;
const contexts: TestToolContext[] = [];

function context(): TestToolContext {
  const ctx = makeToolContext({
    DNS_SERVERS: knot.server,
    SMTP_PROBE_PORT: String(postfix.port),
    NETWORK_ALLOWLIST: '127.0.0.1/32',
    SMTP_HELO_NAME: 'probe.pf.test',
    SMTP_MAIL_FROM: 'verify@probe.pf.test',
    SMTP_PROBE_TIMEOUT_MS: '5000',
    SMTP_PROBE_BUDGET_MS: '10000',
  });
  contexts.push(ctx);
  return ctx;
}

async function verify(email: string) {
  return tool.output.parse(await tool.run(context(), tool.input.parse({ email })));
}

beforeAll(async () => {
  postfix = await startPostfix({ domain: 'pf.test', aliases: ['jane.doe'] });
  knot = await startKnot([{ origin: 'pf.test', records: ['@ 300 IN MX 10 mx', 'mx 300 IN A 127.0.0.1'] }]);
}, 60_000);

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  await knot?.stop();
  await postfix?.stop();
}, 60_000);

describe('email.verify against Postfix', { timeout: 30_000 }, () => {
  it('DELIVERABLE for a real recipient (an alias of root), the random address refused', async () => {
    const r = await verify('jane.doe@pf.test');
    expect(r).toMatchObject({
      status: 'DELIVERABLE',
      status_detail: 'accepted',
      deliverable: true,
      is_smtp_valid: true,
      is_catchall: false,
      mx_records: ['mx.pf.test'],
    });
    expect(r.smtp).toMatchObject({ host: 'mx.pf.test', code: 250, enhanced_code: '2.1.5' });
    expect(r.reason).toMatch(/random address at the same domain was refused/);
  });

  it('accepts the local user root, reported as a role mailbox', async () => {
    const r = await verify('root@pf.test');
    expect(r).toMatchObject({ status: 'RISKY', status_detail: 'role_based', deliverable: true, is_smtp_valid: true, is_role_based: true });
  });

  it('UNDELIVERABLE mailbox_not_found for an unknown user (Postfix: 550 5.1.1 User unknown in local recipient table)', async () => {
    const r = await verify('no.such.user@pf.test');
    expect(r).toMatchObject({ status: 'UNDELIVERABLE', status_detail: 'mailbox_not_found', deliverable: false, is_smtp_valid: false });
    expect(r.smtp).toMatchObject({ code: 550, enhanced_code: '5.1.1' });
    expect(r.smtp?.message).toMatch(/User unknown in local recipient table/);
  });
});
