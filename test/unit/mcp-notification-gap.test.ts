import { describe, expect, it } from 'vitest';
import { keepNotificationGap, NOTIFICATION_GAP_MS } from '../../src/mcp/notification-gap.js';

describe('keepNotificationGap', () => {
  const waits = () => {
    const asked: number[] = [];
    return { asked, wait: (ms: number) => (asked.push(ms), Promise.resolve()) };
  };

  it('waits out the rest of the gap after a recent notification', async () => {
    const w = waits();
    await keepNotificationGap(1_000, 1_005, w.wait);
    expect(w.asked).toEqual([NOTIFICATION_GAP_MS - 5]);
  });

  it('does not wait when no notification was sent, or the last one is older than the gap', async () => {
    const w = waits();
    await keepNotificationGap(0, 1_005, w.wait);
    await keepNotificationGap(1_000, 1_000 + NOTIFICATION_GAP_MS, w.wait);
    await keepNotificationGap(1_000, 5_000, w.wait);
    expect(w.asked).toEqual([]);
  });
});
