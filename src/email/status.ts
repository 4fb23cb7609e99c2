// The status_detail vocabulary of email.verify: each detail belongs to exactly one status and carries the
// base of the quality score. docs/email.md documents the same table; a unit test keeps them in step.

export const EMAIL_STATUSES = ['DELIVERABLE', 'UNDELIVERABLE', 'RISKY', 'UNKNOWN'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

interface DetailInfo {
  status: EmailStatus;
  /** Quality-score base before the adjustments in qualityScore(). */
  base: number;
  meaning: string;
}

export const STATUS_DETAILS = {
  accepted: { status: 'DELIVERABLE', base: 0.9, meaning: 'The mail server accepted this address and refused a random one at the same domain.' },
  role_based: { status: 'RISKY', base: 0.9, meaning: 'Accepted, but a function mailbox (info@, sales@) rather than a person.' },
  catch_all: { status: 'RISKY', base: 0.5, meaning: 'The domain accepts any address, so acceptance proves nothing.' },
  disposable: { status: 'RISKY', base: 0.5, meaning: 'A throwaway-mailbox service; not probed.' },
  mailbox_full: { status: 'RISKY', base: 0.3, meaning: 'The mailbox exists but is over quota (552, X.2.2).' },
  invalid_format: { status: 'UNDELIVERABLE', base: 0, meaning: 'Not a valid address (syntax, lengths, domain form).' },
  domain_not_found: { status: 'UNDELIVERABLE', base: 0, meaning: 'The domain does not exist (NXDOMAIN).' },
  no_mx: { status: 'UNDELIVERABLE', base: 0, meaning: 'The domain has no MX and no A/AAAA record to fall back to.' },
  null_mx: { status: 'UNDELIVERABLE', base: 0, meaning: 'The domain publishes a null MX (RFC 7505): it takes no mail.' },
  mx_host_not_found: { status: 'UNDELIVERABLE', base: 0, meaning: 'No MX host of the domain has an address.' },
  mailbox_not_found: { status: 'UNDELIVERABLE', base: 0, meaning: 'The server says the mailbox does not exist (X.1.1 and kin, "user unknown").' },
  mailbox_disabled: { status: 'UNDELIVERABLE', base: 0, meaning: 'The mailbox exists but is disabled (X.2.1).' },
  recipient_rejected: { status: 'UNDELIVERABLE', base: 0, meaning: 'A permanent refusal of the recipient with no more specific reason given.' },
  accepts_all_provider: {
    status: 'UNKNOWN',
    base: 0.5,
    meaning: 'A provider that accepts every recipient at SMTP time (Yahoo, AOL, consumer Outlook); not probed.',
  },
  blocked_by_server: { status: 'UNKNOWN', base: 0.3, meaning: 'The server refused us (policy, blocklist, X.7.x), not the mailbox.' },
  greylisted: { status: 'UNKNOWN', base: 0.3, meaning: 'Temporary (4xx) answers, still after one retry.' },
  smtp_timeout: { status: 'UNKNOWN', base: 0.3, meaning: 'The mail servers did not answer in time.' },
  smtp_unavailable: { status: 'UNKNOWN', base: 0.3, meaning: 'The mail servers said they were unavailable (421 or 4xx at greeting).' },
  connection_failed: { status: 'UNKNOWN', base: 0.3, meaning: 'No mail server accepted a connection.' },
  connection_dropped: { status: 'UNKNOWN', base: 0.3, meaning: 'The mail server closed the connection mid-session.' },
  smtp_error: { status: 'UNKNOWN', base: 0.3, meaning: 'The mail server broke the protocol or gave an unexpected answer.' },
  tls_failed: { status: 'UNKNOWN', base: 0.3, meaning: 'STARTTLS failed and the plain retry did not decide either.' },
  smtputf8_unsupported: { status: 'UNKNOWN', base: 0.3, meaning: 'The address needs SMTPUTF8 and the server does not offer it.' },
  blocked_target: { status: 'UNKNOWN', base: 0.3, meaning: 'The MX hosts resolve to addresses this service does not connect to.' },
  dns_error: { status: 'UNKNOWN', base: 0.3, meaning: 'DNS did not answer (timeout, SERVFAIL); nothing can be concluded.' },
} as const satisfies Record<string, DetailInfo>;

export type StatusDetail = keyof typeof STATUS_DETAILS;
export const STATUS_DETAIL_NAMES = Object.keys(STATUS_DETAILS) as [StatusDetail, ...StatusDetail[]];

export function statusOf(detail: StatusDetail): EmailStatus {
  return STATUS_DETAILS[detail].status;
}

export interface ScoreInputs {
  status_detail: StatusDetail;
  is_mx_valid: boolean;
  is_disposable: boolean;
  is_role_based: boolean;
  suggestion: string | null;
}

/**
 * quality_score = 0 for UNDELIVERABLE, else
 *   clamp(base(status_detail) + 0.1·is_mx_valid − 0.4·is_disposable − 0.2·is_role_based − 0.2·has_suggestion, 0, 1)
 * rounded to two decimals.
 */
export function qualityScore(r: ScoreInputs): number {
  const info: DetailInfo = STATUS_DETAILS[r.status_detail];
  if (info.status === 'UNDELIVERABLE') return 0;
  const raw = info.base + (r.is_mx_valid ? 0.1 : 0) - (r.is_disposable ? 0.4 : 0) - (r.is_role_based ? 0.2 : 0) - (r.suggestion !== null ? 0.2 : 0);
  return Math.round(Math.min(1, Math.max(0, raw)) * 100) / 100;
}
