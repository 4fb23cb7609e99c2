// email.verify: is this address worth sending to? Syntax, DNS mail route, list flags, and an SMTP probe that
// asks the domain's mail server about the mailbox without sending anything. An address with bad syntax is
// a complete result (UNDELIVERABLE invalid_format); only input that is not an address at all is a 400.
import { z } from 'zod';
import { emailDomainCacheService } from '../src/email/domain-cache.js';
import { emailVerifyResultSchema } from '../src/email/result.js';
import { netGuardService } from '../src/net/guard.js';
import { resolverService } from '../src/net/resolver.js';
import { defineTool } from '../src/registry/define-tool.js';
import { lazyModule } from '../src/registry/lazy-module.js';

// The SMTP client, typo and disposable-domain lists: loaded with the first address, not when the tool is listed.
const verifyModule = lazyModule(async () => ({ ...(await import('../src/email/verify.js')), ...(await import('../src/email/smtp-session-pool.js')) }));

export const emailVerifyInput = z.strictObject({
  email: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required: the address to verify, e.g. jane@example.com' : 'must be a string') })
    .max(1024, 'is too long for an e-mail address')
    // Only "is this an address at all?"; everything finer is the verification's invalid_format result.
    .regex(/\S@\S/, 'must look like an e-mail address (local-part@domain)'),
});

export default defineTool({
  name: 'email.verify',
  title: 'Verify an e-mail address',
  description:
    'Checks whether an e-mail address can receive mail, sending none: syntax, MX, SMTP probe, catch-all. ' +
    'status: DELIVERABLE, UNDELIVERABLE, RISKY or UNKNOWN (Yahoo, AOL, consumer Outlook); quality_score 0–1. ' +
    'Usually < 2 s, at most ~35 s.',
  input: emailVerifyInput,
  output: emailVerifyResultSchema,
  price: '0.002',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  timeoutMs: 60_000,
  concurrency: 32,
  example: { email: 'jane.doe@example.com' },
  // A batch's addresses are created domain by domain, so recipients of one mail server are in flight together
  // and share its SMTP sessions (smtp-session-pool.ts).
  batchKey: (input) =>
    input.email
      .slice(input.email.lastIndexOf('@') + 1)
      .trim()
      .toLowerCase(),
  async run(ctx, input) {
    const { verifyEmail, smtpSessionPoolService } = await verifyModule();
    const [resolver, guard, cache, pool] = await Promise.all([
      ctx.use(resolverService),
      ctx.use(netGuardService),
      ctx.use(emailDomainCacheService),
      ctx.use(smtpSessionPoolService),
    ]);
    const net = ctx.config.net;
    return verifyEmail(
      {
        resolver,
        guard,
        cache,
        signal: ctx.signal,
        log: ctx.log,
        pool,
        settings: {
          port: net.smtpProbePort,
          heloName: net.smtpHeloName,
          mailFrom: net.smtpMailFrom,
          hostTimeoutMs: net.smtpProbeTimeoutMs,
          budgetMs: net.smtpProbeBudgetMs,
          greylistRetryMs: net.smtpGreylistRetryMs,
        },
      },
      input.email,
    );
  },
});
