import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { qualityScore, STATUS_DETAILS, STATUS_DETAIL_NAMES, statusOf, type ScoreInputs } from '../../src/email/status.js';

const base: Omit<ScoreInputs, 'status_detail'> = { is_mx_valid: true, is_disposable: false, is_role_based: false, suggestion: null };

describe('quality_score formula', () => {
  it.each([
    ['accepted', {}, 1],
    ['accepted', { is_mx_valid: false }, 0.9],
    ['role_based', { is_role_based: true }, 0.8],
    ['catch_all', {}, 0.6],
    ['catch_all', { is_role_based: true }, 0.4],
    ['accepts_all_provider', {}, 0.6],
    ['disposable', { is_disposable: true }, 0.2],
    ['disposable', { is_disposable: true, suggestion: 'a@gmail.com' }, 0],
    ['mailbox_full', {}, 0.4],
    ['smtp_timeout', {}, 0.4],
    ['greylisted', { is_mx_valid: false }, 0.3],
    ['accepted', { suggestion: 'a@gmail.com', is_mx_valid: false }, 0.7],
    ['mailbox_not_found', {}, 0],
    ['invalid_format', { is_mx_valid: false }, 0],
    ['null_mx', {}, 0],
  ] as const)('%s with %j → %d', (detail, extra, expected) => {
    expect(qualityScore({ ...base, ...extra, status_detail: detail })).toBe(expected);
  });

  it('stays within 0..1 for every detail and combination of flags', () => {
    for (const detail of STATUS_DETAIL_NAMES) {
      for (const mask of [0, 1, 2, 3, 4, 5, 6, 7, 8, 15]) {
        const s = qualityScore({
          status_detail: detail,
          is_mx_valid: (mask & 1) !== 0,
          is_disposable: (mask & 2) !== 0,
          is_role_based: (mask & 4) !== 0,
          suggestion: (mask & 8) !== 0 ? 'x@gmail.com' : null,
        });
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1);
        if (statusOf(detail) === 'UNDELIVERABLE') expect(s).toBe(0);
      }
    }
  });

  it('ranks DELIVERABLE above RISKY above UNKNOWN-or-worse for the same flags', () => {
    const s = (d: (typeof STATUS_DETAIL_NAMES)[number]) => qualityScore({ ...base, status_detail: d });
    expect(s('accepted')).toBeGreaterThan(s('catch_all'));
    expect(s('catch_all')).toBeGreaterThan(s('smtp_timeout'));
    expect(s('smtp_timeout')).toBeGreaterThan(s('mailbox_not_found'));
  });
});

describe('status_detail vocabulary', () => {
  it('gives every detail one status and documents each in docs/email.md', () => {
    const doc = fs.readFileSync(new URL('../../docs/email.md', import.meta.url), 'utf8');
    for (const [detail, info] of Object.entries(STATUS_DETAILS)) {
      expect(['DELIVERABLE', 'UNDELIVERABLE', 'RISKY', 'UNKNOWN']).toContain(info.status);
      expect(doc, `docs/email.md lacks a row for ${detail}`).toMatch(new RegExp(`\\| \`${detail}\` \\| ${info.status} \\| ${info.base} \\|`));
    }
  });

  it('has exactly one DELIVERABLE detail', () => {
    expect(Object.values(STATUS_DETAILS).filter((d) => d.status === 'DELIVERABLE')).toHaveLength(1);
  });
});
