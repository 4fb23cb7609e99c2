// Chromium with its sandbox (where sandbox-decision.ts finds it can work, or CHROMIUM_SANDBOX=on): renderers
// in their own user, PID and network namespaces under a seccomp-BPF filter, so a renderer exploit run by a hostile page stays inside them. Chromium will not
// start sandboxed as root, and Playwright launches it as the Node process's uid; a service running as root
// therefore launches it through a small wrapper that hands Playwright's temporary profile to an unprivileged
// uid and then becomes that uid (setpriv, util-linux) before exec'ing Chromium. The wrapper keeps the
// process id and the inherited debugging pipe, so Playwright drives and stops Chromium as usual.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dropTo, findSetpriv } from './sandbox-facts.js';

export interface BrowserSandbox {
  /** What Playwright launches: Chromium itself, or the wrapper that drops to `uid` first. */
  executablePath: string;
  /** Whether Chromium runs with its sandbox (no --no-sandbox). */
  enabled: boolean;
  /** Deletes the wrapper, if one was written (once Chromium is closed). */
  remove(): void;
}

/** Single-quoted for sh. */
const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function browserSandbox(chromium: string, o: { enabled: boolean; runAsUid: number | undefined }): BrowserSandbox {
  if (!o.enabled) return { executablePath: chromium, enabled: false, remove: () => undefined };
  if (o.runAsUid === undefined || process.getuid?.() !== 0) return { executablePath: chromium, enabled: true, remove: () => undefined };
  const uid = o.runAsUid;
  const setpriv = findSetpriv();
  if (!setpriv) throw new Error('Chromium with its sandbox while running as root needs setpriv (util-linux) to start it as an unprivileged user.');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-chromium-'));
  fs.chmodSync(dir, 0o755);
  const wrapper = path.join(dir, 'chromium');
  const script = [
    '#!/bin/sh',
    '# Written by agent-utility (src/browser/sandbox.ts): Chromium as an unprivileged user, with its sandbox.',
    'profile=',
    'for arg in "$@"; do case "$arg" in --user-data-dir=*) profile="${arg#--user-data-dir=}";; esac; done',
    `if [ -n "$profile" ]; then chown -R ${uid}:${uid} "$profile" || exit 1; fi`,
    `exec ${sh(setpriv)} ${dropTo(uid).join(' ')} env HOME="\${profile:-/tmp}" ${sh(chromium)} "$@"`,
    '',
  ].join('\n');
  fs.writeFileSync(wrapper, script, { mode: 0o755 });
  return { executablePath: wrapper, enabled: true, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
