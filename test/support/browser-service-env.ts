// The settings a test service needs to render pages served on loopback in Chromium: names from the test's
// own Knot, loopback allowed, two browser slots, no rate limits (a test makes requests faster than a caller
// would), and the browser the whole run picked (CHROMIUM_PATH: full chromium or the headless shell).

export function browserServiceEnv(dnsServer: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NETWORK_ALLOWLIST: '127.0.0.1/32',
    DNS_SERVERS: dnsServer,
    BROWSER_CONCURRENCY: '2',
    RATE_LIMIT_PER_IP: '0',
    RATE_LIMIT_PER_KEY: '0',
    ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}),
    ...extra,
  };
}
