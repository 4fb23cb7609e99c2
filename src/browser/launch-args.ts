// Chromium's command line. Everything the page does goes through the guarded proxy: the implicit
// loopback bypass is removed, Chromium's own DNS is switched off (the proxy resolves names), QUIC is off
// (UDP would bypass an HTTP proxy) and WebRTC may not use UDP outside the proxy.

// Chromium honours only the last --disable-features switch, and ours comes after Playwright's, so ours
// repeats Playwright's list (playwright-core 1.65, chromiumSwitches.ts) before adding its own.
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
];
const DISABLED_FEATURES = [
  ...PLAYWRIGHT_DISABLED_FEATURES,
  // Every new window (one per context) would otherwise preload the omnibox popup WebUI in a renderer of
  // its own: ~0.7 s of CPU per task for a UI a headless browser never shows.
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  // A page left for about:blank (a reused tab being wiped) would be frozen and kept for history.back():
  // work for nothing, and state the wipe would have to evict.
  'BackForwardCache',
  // A new RenderFrameHost (a new Blink frame, compositor and widget) for every document: a third of
  // Chromium's CPU for a task in a reused tab, whose pages follow one another in the same frame. Without
  // it Chromium keeps the frame for a same-site navigation, as it did before RenderDocument; processes
  // are still one per site.
  'RenderDocument',
  // No traffic of Chromium's own.
  'DnsOverHttps',
  'Translate',
  'InterestFeedContentSuggestions',
  'AutofillServerCommunication',
];

/** The V8 heap limit of each renderer, in MB. */
export const PAGE_HEAP_MB = 512;

export function chromiumArgs(proxyUrl: string | undefined, sandbox = false): string[] {
  const args = [
    '--headless',
    // Where the sandbox cannot work here or CHROMIUM_SANDBOX=off (sandbox-decision.ts); docs/network.md says what isolates pages then.
    ...(sandbox ? [] : ['--no-sandbox']),
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-quic',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-default-apps',
    '--disable-domain-reliability',
    '--disable-breakpad',
    '--metrics-recording-only',
    '--mute-audio',
    '--hide-scrollbars',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
    `--disable-features=${DISABLED_FEATURES.join(',')}`,
    // A page's script heap is capped: a script allocating without end crashes its own renderer (its task
    // fails) at this size instead of taking the machine's memory from everything else.
    `--js-flags=--max-old-space-size=${PAGE_HEAP_MB}`,
  ];
  if (proxyUrl) {
    args.push(
      `--proxy-server=${proxyUrl}`,
      // "<-loopback>" removes Chromium's built-in rule that sends localhost and 127.0.0.1 direct.
      '--proxy-bypass-list=<-loopback>',
      // Nothing needs Chromium's resolver once every connection goes through the proxy; refusing all
      // lookups stops prefetch and friends from resolving names behind the guard's back (the proxy itself
      // is an IP literal, excluded so Chromium can reach it).
      '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
    );
  }
  return args;
}
