import { describe, expect, it } from 'vitest';
import { classifyRcptReply, parseReply, replyText, type RcptVerdict } from '../../src/email/smtp-reply.js';

describe('SMTP reply parsing', () => {
  it('joins multi-line replies and takes the code from the last line', () => {
    const r = parseReply(['250-mx.example.com Hello', '250-PIPELINING', '250-STARTTLS', '250 SMTPUTF8']);
    expect(r.code).toBe(250);
    expect(r.enhanced).toBeNull();
    expect(r.lines).toEqual(['mx.example.com Hello', 'PIPELINING', 'STARTTLS', 'SMTPUTF8']);
  });

  it('reads the enhanced status code and strips it from each line', () => {
    const r = parseReply(['550-5.1.1 The email account that you tried to reach does not exist.', '550 5.1.1 https://support.example/NoSuchUser']);
    expect(r).toMatchObject({ code: 550, enhanced: '5.1.1' });
    expect(replyText(r)).toBe('The email account that you tried to reach does not exist. https://support.example/NoSuchUser');
  });

  it('normalises leading zeros and ignores an enhanced code of the wrong class', () => {
    expect(parseReply(['550 5.01.010 RESOLVER.ADR.RecipientNotFound']).enhanced).toBe('5.1.10');
    expect(parseReply(['550 2.0.0 odd']).enhanced).toBeNull();
    expect(parseReply(['220']).code).toBe(220);
  });
});

const table: [string[], RcptVerdict][] = [
  [['250 2.1.5 Ok'], 'accepted'],
  [['251 User not local; will forward'], 'accepted'],
  [['550 5.1.1 <x@example.com>: Recipient address rejected: User unknown in local recipient table'], 'mailbox_not_found'],
  [['550-5.1.1 The email account that you tried to reach does not exist.', '550 5.1.1 Please try double-checking'], 'mailbox_not_found'],
  [['550 5.1.0 Address rejected'], 'mailbox_not_found'],
  [['550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup'], 'mailbox_not_found'],
  [['553 5.1.3 Invalid recipient address'], 'mailbox_not_found'],
  [['550 No such user here'], 'mailbox_not_found'],
  [['550 Requested action not taken: mailbox unavailable'], 'mailbox_not_found'],
  [['550 unknown user'], 'mailbox_not_found'],
  [['552 5.2.2 Mailbox full'], 'mailbox_full'],
  [['452 4.2.2 The email account that you tried to reach is over quota'], 'mailbox_full'],
  [['552 Requested mail action aborted: exceeded storage allocation'], 'mailbox_full'],
  [['550 5.2.1 Mailbox disabled, not accepting messages'], 'mailbox_disabled'],
  [['550 The account has been disabled'], 'mailbox_disabled'],
  [['554 5.7.1 Service unavailable; Client host [192.0.2.1] blocked using zen.spamhaus.org'], 'blocked_by_server'],
  [['550 5.7.1 Relaying denied'], 'blocked_by_server'],
  [['550 5.7.606 Access denied, banned sending IP'], 'blocked_by_server'],
  [['550 Rejected by policy: your IP is listed'], 'blocked_by_server'],
  [['554 Transaction failed'], 'blocked_by_server'],
  // A 5.1.x code whose text is about us (the sender), not the mailbox.
  [['550 5.1.0 Sender rejected: spam source'], 'blocked_by_server'],
  [['553 5.1.8 Domain of sender address does not exist'], 'blocked_by_server'],
  [['451 4.7.1 Greylisted, please try again later'], 'temporary_failure'],
  [['450 4.2.0 <x@example.com>: Recipient address rejected: Greylisted'], 'temporary_failure'],
  [['421 4.7.0 Try again later, closing connection'], 'temporary_failure'],
  [['451 4.7.1 Client host blocked using bl.spamcop.net'], 'blocked_by_server'],
  [['550 Rejected'], 'recipient_rejected'],
  [['551 User not local'], 'recipient_rejected'],
  [['501 5.5.4 Syntax error in parameters'], 'protocol_error'],
  [['354 Start mail input'], 'protocol_error'],
];

describe('RCPT TO reply classification', () => {
  it.each(table)('%j → %s', (lines, verdict) => {
    expect(classifyRcptReply(parseReply(lines))).toBe(verdict);
  });
});
