// SMTP replies: the three-digit code, the RFC 3463 enhanced status code when the server sends one, and the
// meaning of a reply to RCPT TO. Enhanced codes decide first, then the basic code, then the reply text;
// anything that reads like a policy or blocklist refusal is never turned into "the mailbox does not exist".

export interface SmtpReply {
  code: number;
  /** RFC 3463 enhanced status code ("5.1.1"), or null when the server sends none. */
  enhanced: string | null;
  /** Text of every line, without the code and the enhanced code. */
  lines: string[];
}

/** What a reply to RCPT TO says about the mailbox. */
export type RcptVerdict =
  'accepted' | 'mailbox_not_found' | 'mailbox_disabled' | 'mailbox_full' | 'recipient_rejected' | 'blocked_by_server' | 'temporary_failure' | 'protocol_error';

const ENHANCED = /^([245])\.(\d{1,3})\.(\d{1,3})(?=\s|$)/;

/** Builds a reply from its raw lines ("250-first", "250 last"); the code comes from the last line. */
export function parseReply(rawLines: readonly string[]): SmtpReply {
  const last = rawLines[rawLines.length - 1] ?? '';
  const code = Number(last.slice(0, 3));
  let enhanced: string | null = null;
  const lines = rawLines.map((line) => {
    let text = line.slice(4);
    const m = ENHANCED.exec(text);
    // An enhanced code only counts when its class matches the reply's (RFC 3463 §2).
    if (m && m[1] === String(code)[0]) {
      enhanced ??= `${m[1]}.${Number(m[2])}.${Number(m[3])}`;
      text = text.slice(m[0].length).trimStart();
    }
    return text;
  });
  return { code, enhanced, lines };
}

export function replyText(reply: SmtpReply): string {
  return reply.lines.join(' ').replace(/\s+/g, ' ').trim();
}

// Refusals aimed at us (our IP, our name, our rate), not at the mailbox.
const POLICY_TEXT =
  /\b(spam|block(ed|list)?|black ?list(ed)?|deny ?list|listed|reputation|polic(y|ies)|rbl|dnsbl|spamhaus|barracuda|spamcop|abuse|reverse dns|ptr record|not allowed|access denied|relay(ing)? (access )?denied|rate limit|too many|banned|prohibited|rejected by|refused by|authentication required|sender|helo|client host|your ip|ip address)\b/i;
const NOT_FOUND_TEXT =
  /\b(user|mailbox|recipient|address|account)\b[^.;]{0,40}\b(unknown|not found|does ?n[o']t exist|not exist|no such|invalid|unavailable|not valid|unrouteable|not listed)\b|\bno such (user|mailbox|recipient|address|account|person)\b|\bunknown (user|recipient|mailbox|account|local part)\b|\bundeliverable address\b/i;
const GREYLIST_TEXT = /\bgr[ae]y ?list|\btry (again )?later\b|\bcome back later\b|\btemporar/i;
const FULL_TEXT = /\b(mailbox|inbox|quota|storage)\b[^.;]{0,30}\b(full|exceeded)\b|\bover ?quota\b/i;
const DISABLED_TEXT = /\b(mailbox|account|user|recipient)\b[^.;]{0,30}\b(disabled|deactivated|suspended|inactive|closed|locked)\b/i;

function byEnhancedCode(enhanced: string): RcptVerdict | null {
  const [klass, subject, detail] = enhanced.split('.').map(Number) as [number, number, number];
  if (klass === 4) return subject === 2 && detail === 2 ? 'mailbox_full' : null;
  if (subject === 1) {
    // X.1.7 and X.1.8 are about the sender's address (ours): a refusal of us, not of the mailbox.
    if (detail === 7 || detail === 8) return 'blocked_by_server';
    return 'mailbox_not_found';
  }
  if (subject === 2) {
    if (detail === 1) return 'mailbox_disabled';
    if (detail === 2) return 'mailbox_full';
    return null;
  }
  if (subject === 7) return 'blocked_by_server';
  return null;
}

/** The meaning of a reply to RCPT TO. */
export function classifyRcptReply(reply: SmtpReply): RcptVerdict {
  const { code } = reply;
  if (code >= 200 && code < 300) return 'accepted';
  const text = replyText(reply);
  const policy = POLICY_TEXT.test(text);
  if (code >= 400 && code < 500) {
    if (reply.enhanced && byEnhancedCode(reply.enhanced) === 'mailbox_full') return 'mailbox_full';
    if (!reply.enhanced && FULL_TEXT.test(text)) return 'mailbox_full';
    if (policy && !GREYLIST_TEXT.test(text)) return 'blocked_by_server';
    // Temporary: greylisting, a busy server, a tempfailed lookup. Retried once by the probe.
    return 'temporary_failure';
  }
  if (code < 500 || code > 599) return 'protocol_error';

  const fromEnhanced = reply.enhanced ? byEnhancedCode(reply.enhanced) : null;
  if (fromEnhanced === 'blocked_by_server' || fromEnhanced === 'mailbox_full' || fromEnhanced === 'mailbox_disabled') return fromEnhanced;
  // A mailbox verdict stated with a 5.1.x code stands unless the text says it is really about us.
  if (fromEnhanced === 'mailbox_not_found') return policy && !NOT_FOUND_TEXT.test(text) ? 'blocked_by_server' : fromEnhanced;

  if (policy) return 'blocked_by_server';
  if (FULL_TEXT.test(text) || code === 552) return 'mailbox_full';
  if (DISABLED_TEXT.test(text)) return 'mailbox_disabled';
  if (NOT_FOUND_TEXT.test(text)) return 'mailbox_not_found';
  if (code === 554) return 'blocked_by_server';
  if (code === 550 || code === 551 || code === 553) return 'recipient_rejected';
  return 'protocol_error';
}
