// A transport that lets the opening handshake through at once and holds every other message until the
// session is ready. stdio answers `initialize` from the server's static capabilities while the engine is
// still booting; tools/list, tools/call and the rest wait here, in order, and are handled once their
// handlers are installed (they would otherwise be answered "method not found"). An initialize answered
// before the SDK loaded is answered once: the SDK's second answer to it is dropped here.
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';

/** What the SDK answers without any of our handlers. */
const HANDSHAKE = new Set(['initialize', 'notifications/initialized', 'ping']);

export class GatedTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;
  /** Called when the first message is held: whatever opens the gate should be under way. */
  onhold?: (() => void) | undefined;
  private held: [JSONRPCMessage, MessageExtraInfo | undefined][] | undefined = [];

  /**
   * @param answered the id of an `initialize` already answered before the SDK loaded (early-initialize.ts):
   * the SDK server still handles it, and its own answer to that id is not sent a second time.
   */
  constructor(
    private readonly inner: Transport,
    private answered?: string | number,
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (err) => this.onerror?.(err);
    inner.onmessage = (message, extra) => {
      const method = (message as { method?: unknown }).method;
      // Once anything is held, everything after it is held too, so the order the client sent is kept.
      if (this.held && (this.held.length > 0 || typeof method !== 'string' || !HANDSHAKE.has(method))) {
        if (this.held.push([message, extra]) === 1) this.onhold?.();
      } else this.onmessage?.(message, extra);
    };
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** Delivers what was held, in order, and lets every later message straight through. */
  open(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const [message, extra] of held) this.onmessage?.(message, extra);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.answered !== undefined && !('method' in message) && 'id' in message && message.id === this.answered) {
      this.answered = undefined;
      return Promise.resolve();
    }
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}
