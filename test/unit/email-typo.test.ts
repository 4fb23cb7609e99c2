import { describe, expect, it } from 'vitest';
import { editDistance } from '../../src/edit-distance.js';
import { suggestDomain } from '../../src/email/typo.js';

describe('edit distance (optimal string alignment)', () => {
  it.each([
    ['gmail.com', 'gmail.com', 0],
    ['gmial.com', 'gmail.com', 1],
    ['gmal.com', 'gmail.com', 1],
    ['gmaill.com', 'gmail.com', 1],
    ['hotmial.com', 'hotmail.com', 1],
    ['gmial.con', 'gmail.com', 2],
    ['', 'abc', 3],
  ])('%s ↔ %s = %d', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe('typo suggestions', () => {
  it.each([
    ['gmial.com', 'gmail.com'],
    ['gamil.com', 'gmail.com'],
    ['gmaill.com', 'gmail.com'],
    ['gmail.con', 'gmail.com'],
    ['gmail.cmo', 'gmail.com'],
    ['gmial.con', 'gmail.com'],
    ['hotmial.com', 'hotmail.com'],
    ['hotmal.com', 'hotmail.com'],
    ['yaho.com', 'yahoo.com'],
    ['yahooo.com', 'yahoo.com'],
    ['outlok.com', 'outlook.com'],
    ['iclod.com', 'icloud.com'],
    ['aol.con', 'aol.com'],
    ['comcast.nte', 'comcast.net'],
  ])('%s → %s', (typo, fixed) => {
    expect(suggestDomain(typo)).toBe(fixed);
  });

  it.each([
    'gmail.com',
    'mail.com',
    'gmx.de',
    'live.com',
    'love.com',
    'me.com',
    'art.net',
    'example.com',
    'mycompany.com',
    'web.com',
    'yahoo.de',
    'hotmail.de',
    'outlook.de',
  ])('leaves %s alone', (domain) => {
    expect(suggestDomain(domain)).toBeNull();
  });
});
