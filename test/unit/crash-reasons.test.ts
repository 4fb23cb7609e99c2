// How Chromium's report of a dead renderer is read: the heap cap's deliberate crash is memory, SIGKILL
// is a kill from outside, anything else (or no report) is a plain crash.
import { expect, it } from 'vitest';
import { causeOf, crashMessage } from '../../src/browser/crash-reasons.js';

it('reads the heap-limit crash (SIGTRAP) and an explicit oom status as memory', () => {
  expect(causeOf({ status: 'crashed', errorCode: 5 })).toBe('memory');
  expect(causeOf({ status: 'oom', errorCode: 0 })).toBe('memory');
});

it('reads SIGKILL as killed and anything else as a plain crash', () => {
  expect(causeOf({ status: 'killed', errorCode: 9 })).toBe('killed');
  expect(causeOf({ status: 'crashed', errorCode: 11 })).toBe('crashed');
  expect(causeOf({ status: 'abnormal', errorCode: 1 })).toBe('crashed');
  expect(causeOf(undefined)).toBe('crashed');
});

it('names the limit in the memory message', () => {
  expect(crashMessage('memory')).toMatch(/more memory than the limit of 512 MB/);
  expect(crashMessage('killed')).toMatch(/^The page crashed: its renderer process was killed/);
});
