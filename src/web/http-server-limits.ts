// How long a client may hold a connection of the task service (and the lead service) without moving it
// forward, and how many it may hold. Without these a few sockets dribbling header bytes, or thousands of
// idle keep-alive connections, would hold file descriptors and memory for as long as the client liked.
import http from 'node:http';
import type { Config } from '../config.js';

export type HttpServerLimits = Config['http']['server'];

/** Server options that must be given at creation: how often Node looks for requests past their timeouts. */
export function serverOptions(limits: HttpServerLimits): http.ServerOptions {
  // Node checks header and request deadlines on a timer (30 s by default), so a deadline is only as
  // sharp as that interval: check four times per shortest deadline, at most every 30 s.
  const shortest = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return { connectionsCheckingInterval: Math.max(25, Math.min(30_000, Math.floor(shortest / 4))) };
}

/** Sets the deadlines and the connection cap on a created server. */
export function applyServerLimits(server: http.Server, limits: HttpServerLimits): void {
  // Whole request (headers and body) received; the answer may take longer (long polls, MCP calls).
  server.requestTimeout = limits.requestTimeoutMs;
  // Counted from the first byte, so dribbling header bytes does not extend it (slowloris).
  server.headersTimeout = limits.headersTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // Connections past the cap are closed as they are accepted: a bound on descriptors, not a queue.
  if (limits.maxConnections > 0) server.maxConnections = limits.maxConnections;
}

/** An http.Server for `handler` with the configured deadlines and cap. */
export function createLimitedServer(limits: HttpServerLimits, handler: http.RequestListener): http.Server {
  const server = http.createServer(serverOptions(limits), handler);
  applyServerLimits(server, limits);
  return server;
}
