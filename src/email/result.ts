// The result of email.verify: the documented fields, plus `suggestion`, `mail_route`, `smtp` and `reason`.
import { z } from 'zod';
import { EMAIL_STATUSES, STATUS_DETAIL_NAMES } from './status.js';

export const emailVerifyResultSchema = z.object({
  email: z.string().describe('The address checked, normalised: simplest local-part form, lower-case domain (IDN in Unicode).'),
  deliverable: z.boolean().describe('The server accepted this exact address (and refused a random one at the domain).'),
  status: z.enum(EMAIL_STATUSES).nullable(),
  status_detail: z.enum(STATUS_DETAIL_NAMES).nullable().describe('Why, from a fixed vocabulary (see docs).'),
  quality_score: z.number().min(0).max(1).describe('0..1, documented formula.'),
  is_format_valid: z.boolean(),
  is_smtp_valid: z.boolean().describe('The mail server accepted RCPT TO for the address (also true on a catch-all).'),
  is_mx_valid: z.boolean().describe('The domain has MX records (not null MX; false when mail falls back to A/AAAA).'),
  mx_records: z.array(z.string()).describe('MX hosts in preference order.'),
  is_disposable: z.boolean(),
  is_free_email: z.boolean(),
  is_role_based: z.boolean(),
  is_catchall: z.boolean(),
  suggestion: z.string().nullable().describe('Corrected address when the domain looks misspelt (gmial.com → gmail.com).'),
  mail_route: z.enum(['mx', 'implicit', 'null_mx', 'none']).nullable().describe('How mail reaches the domain; implicit = A/AAAA fallback.'),
  smtp: z
    .object({
      host: z.string(),
      code: z.number().int().nullable(),
      enhanced_code: z.string().nullable(),
      message: z.string().nullable(),
      tls: z
        .object({
          offered: z.boolean(),
          used: z.boolean(),
          certificate_valid: z.boolean().nullable(),
          error: z.string().nullable(),
        })
        .nullable(),
    })
    .nullable()
    .describe('The mail server reply that decided, when one was probed.'),
  reason: z.string().describe('One sentence on how the status was reached.'),
});

export type EmailVerifyResult = z.infer<typeof emailVerifyResultSchema>;
