// The official MCP SDK clients (v1 and v2) dispatch an incoming notification one microtask late but a
// response at once. When a progress notification and the call's result reach the client in the same
// read, the response retires the progress token first and the client reports "a progress notification
// for an unknown token" (modelcontextprotocol/typescript-sdk#2580); some clients close the connection on
// it. No server can rule that out, but a short gap between the last notification and the result makes
// the two arrive in separate reads whenever the client is keeping up, so fast calls stop tripping it.

/** How long after the last notification of a call its result waits, at most. */
export const NOTIFICATION_GAP_MS = 20;

export type Sleep = (ms: number) => Promise<void>;

const sleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits out the rest of the gap after a notification sent at `lastSentAt` (0: none was sent). */
export async function keepNotificationGap(lastSentAt: number, now = Date.now(), wait: Sleep = sleep): Promise<void> {
  if (lastSentAt <= 0) return;
  const left = lastSentAt + NOTIFICATION_GAP_MS - now;
  if (left > 0) await wait(left);
}
