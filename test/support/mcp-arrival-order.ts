// The official SDK clients dispatch a notification one microtask late but a response at once, so a
// progress or log notification that arrives in the same read as the call's result is handled after
// it: the progress token is already retired ("unknown token", modelcontextprotocol/typescript-sdk#2580)
// and a test that waits for the result misses the notification. Which read a message lands in depends on
// how busy the test process is, so tests hand each incoming message to the client on its own turn of
// the event loop: every notification is then handled before the next message, exactly in arrival order.
type Handler = (message: never, extra?: never) => void;

/** Makes `transport` deliver one message per event-loop turn; returns it for chaining. */
export function inArrivalOrder<T extends object>(transport: T): T {
  let handler: Handler | undefined;
  const queue: [never, never][] = [];
  let draining = false;
  const drain = () => {
    const next = queue.shift();
    if (!next) {
      draining = false;
      return;
    }
    handler?.(next[0], next[1]);
    setImmediate(drain);
  };
  const deliver = (message: never, extra: never) => {
    queue.push([message, extra]);
    if (draining) return;
    draining = true;
    setImmediate(drain);
  };
  // The transport calls `this.onmessage`, and the client sets it on connect: an accessor on the instance
  // sits between the two without touching the transport's own code.
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => (handler ? deliver : undefined),
    set: (h: Handler | undefined) => {
      handler = h;
    },
  });
  return transport;
}
