import { describe, expect, it } from 'vitest';
import { accountEmail } from '../../src/leads/account-email.js';

describe('accountEmail', () => {
  it.each([
    ['A+1@X.com', 'a@x.com'],
    ['a+2@x.com', 'a@x.com'],
    [' a@x.com ', 'a@x.com'],
    ['first.last@x.com', 'first.last@x.com'],
    ['First.Last+news@Gmail.com', 'firstlast@gmail.com'],
    ['f.i.r.s.t@googlemail.com', 'first@gmail.com'],
    ['+only@x.com', '+only@x.com'],
  ])('%s → %s', (given, expected) => {
    expect(accountEmail(given)).toBe(expected);
  });
});
