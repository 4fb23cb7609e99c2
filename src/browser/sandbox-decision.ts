// Whether Chromium can run with its sandbox here, decided from facts gathered once at start
// (sandbox-facts.ts): a pure function, so every case is tested without the kernel it describes.
// Chromium's Linux sandbox needs unprivileged user namespaces (Debian's package ships no setuid helper),
// and it will not run as root: a root service starts it as CHROMIUM_SANDBOX_UID through setpriv. The
// deciding fact is a real try: creating user, PID and network namespaces as the uid Chromium would run
// as. The sysctls only name the likely cause when that try fails (or could not be made).

export type SandboxSetting = 'auto' | 'on' | 'off';

export type SandboxProbe =
  | { outcome: 'ok' }
  | { outcome: 'refused'; detail: string }
  /** Not tried: no unshare (util-linux), or not Linux. */
  | { outcome: 'not_tried'; detail: string };

export interface SandboxFacts {
  setting: SandboxSetting;
  platform: NodeJS.Platform;
  /** This process's uid; undefined where there are none. */
  processUid: number | undefined;
  /** CHROMIUM_SANDBOX_UID: who Chromium runs as when this process is root. */
  sandboxUid: number;
  /** setpriv's path, if installed (needed as root to start Chromium as sandboxUid). */
  setpriv: string | undefined;
  /** /proc/sys/user/max_user_namespaces, where readable. */
  maxUserNamespaces: number | undefined;
  /** /proc/sys/kernel/unprivileged_userns_clone (a Debian and Ubuntu knob), where present. */
  unprivilegedUsernsClone: number | undefined;
  /** /proc/sys/kernel/apparmor_restrict_unprivileged_userns (Ubuntu 23.10 and later), where present. */
  apparmorRestrictsUserns: number | undefined;
  /** The try itself (as sandboxUid when root, else as this uid); 'not_tried' when it was not made. */
  probe: SandboxProbe;
}

export interface SandboxDecision {
  /** Chromium runs with its sandbox (no --no-sandbox). */
  enabled: boolean;
  /** The uid to start Chromium as (through setpriv) when this process is root; undefined otherwise. */
  runAsUid: number | undefined;
  /** One plain sentence: why the sandbox is on or off here (logged once, shown on /healthz and /metrics). */
  reason: string;
  /** CHROMIUM_SANDBOX=on where it cannot work at all: the service refuses to start the browser. */
  impossible?: true;
}

/** What stops unprivileged user namespaces, from the sysctls; undefined when they do not say. */
function sysctlBlocker(f: SandboxFacts): string | undefined {
  if (f.maxUserNamespaces === 0) return 'user.max_user_namespaces is 0';
  if (f.unprivilegedUsernsClone === 0) return 'kernel.unprivileged_userns_clone is 0';
  if (f.apparmorRestrictsUserns === 1) return 'kernel.apparmor_restrict_unprivileged_userns is 1 (AppArmor refuses them to unconfined programs)';
  return undefined;
}

export function decideSandbox(f: SandboxFacts): SandboxDecision {
  const root = f.processUid === 0;
  const runAsUid = root ? f.sandboxUid : undefined;
  const as = `as uid ${root ? f.sandboxUid : (f.processUid ?? '?')}`;
  if (f.setting === 'off') return { enabled: false, runAsUid: undefined, reason: 'CHROMIUM_SANDBOX=off.' };
  if (root && !f.setpriv) {
    const reason = 'This service runs as root, where Chromium must be started as an unprivileged uid, and setpriv (util-linux) is not installed to do that.';
    return f.setting === 'on' ? { enabled: false, runAsUid, reason, impossible: true } : { enabled: false, runAsUid: undefined, reason };
  }
  let refusal: string | undefined;
  if (f.platform !== 'linux') refusal = `the sandbox check covers Linux only (this is ${f.platform})`;
  else if (f.probe.outcome === 'refused') {
    const cause = sysctlBlocker(f);
    refusal = `creating user, PID and network namespaces ${as} was refused (${f.probe.detail})${
      cause ? `: ${cause}` : ": most likely a container seccomp profile that refuses them (Docker's default does for unprivileged containers)"
    }`;
  } else if (f.probe.outcome === 'not_tried') {
    const cause = sysctlBlocker(f);
    refusal = cause ?? `whether unprivileged user namespaces work could not be tried (${f.probe.detail})`;
  }
  if (refusal === undefined) {
    const who = root ? `${as}, CHROMIUM_SANDBOX_UID, since this service runs as root` : as;
    return { enabled: true, runAsUid, reason: `Unprivileged user namespaces work here, so Chromium runs with its sandbox (${who}).` };
  }
  if (f.setting === 'on') {
    return { enabled: true, runAsUid, reason: `CHROMIUM_SANDBOX=on forces the sandbox although ${refusal}; Chromium may fail to start.` };
  }
  return { enabled: false, runAsUid: undefined, reason: `Chromium runs without its sandbox because ${refusal}.` };
}
