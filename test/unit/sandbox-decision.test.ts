// The Chromium sandbox decision over the facts of a machine: on where a real try at user namespaces
// worked, off with the reason where it did not (naming the sysctl that explains it), CHROMIUM_SANDBOX=off
// always off, =on forced (refused only where it cannot work at all: root without setpriv).
import { describe, expect, it } from 'vitest';
import { decideSandbox, type SandboxFacts } from '../../src/browser/sandbox-decision.js';
import { renderSandboxMetric } from '../../src/browser/sandbox-status.js';

const base: SandboxFacts = {
  setting: 'auto',
  platform: 'linux',
  processUid: 0,
  sandboxUid: 65534,
  setpriv: '/usr/bin/setpriv',
  maxUserNamespaces: 96365,
  unprivilegedUsernsClone: undefined,
  apparmorRestrictsUserns: undefined,
  probe: { outcome: 'ok' },
};
const refused = { outcome: 'refused', detail: 'unshare failed: Operation not permitted' } as const;

describe('decideSandbox', () => {
  it('turns the sandbox on where the try worked: as CHROMIUM_SANDBOX_UID for root, as itself otherwise', () => {
    expect(decideSandbox(base)).toMatchObject({ enabled: true, runAsUid: 65534 });
    expect(decideSandbox(base).reason).toContain('as uid 65534, CHROMIUM_SANDBOX_UID');
    expect(decideSandbox({ ...base, processUid: 1000 })).toMatchObject({ enabled: true, runAsUid: undefined });
    expect(decideSandbox({ ...base, processUid: 1000 }).reason).toContain('(as uid 1000)');
  });

  it('keeps it off, with the reason, where the try was refused', () => {
    const d = decideSandbox({ ...base, probe: refused });
    expect(d).toMatchObject({ enabled: false, runAsUid: undefined });
    expect(d.impossible).toBeUndefined();
    expect(d.reason).toContain('as uid 65534 was refused (unshare failed: Operation not permitted)');
    expect(d.reason).toContain('seccomp profile');
    expect(decideSandbox({ ...base, probe: refused, maxUserNamespaces: 0 }).reason).toContain('user.max_user_namespaces is 0');
    expect(decideSandbox({ ...base, probe: refused, unprivilegedUsernsClone: 0 }).reason).toContain('kernel.unprivileged_userns_clone is 0');
    expect(decideSandbox({ ...base, probe: refused, apparmorRestrictsUserns: 1 }).reason).toContain('apparmor_restrict_unprivileged_userns is 1');
  });

  it('keeps it off where nothing could be tried, naming a blocking sysctl when there is one', () => {
    const untried = { outcome: 'not_tried', detail: 'unshare (util-linux) is not installed' } as const;
    expect(decideSandbox({ ...base, probe: untried })).toMatchObject({ enabled: false });
    expect(decideSandbox({ ...base, probe: untried }).reason).toContain('unshare (util-linux) is not installed');
    expect(decideSandbox({ ...base, probe: untried, unprivilegedUsernsClone: 0 }).reason).toContain('kernel.unprivileged_userns_clone is 0');
    expect(decideSandbox({ ...base, platform: 'darwin', probe: { outcome: 'not_tried', detail: 'not Linux' } }).reason).toContain('Linux only');
  });

  it('needs setpriv as root', () => {
    const d = decideSandbox({ ...base, setpriv: undefined });
    expect(d).toMatchObject({ enabled: false });
    expect(d.impossible).toBeUndefined();
    expect(d.reason).toContain('setpriv');
    // A service that is not root starts Chromium itself.
    expect(decideSandbox({ ...base, setpriv: undefined, processUid: 1000 })).toMatchObject({ enabled: true });
    // Forced on where it cannot work at all: refused, so the browser does not start unsandboxed unannounced.
    expect(decideSandbox({ ...base, setting: 'on', setpriv: undefined })).toMatchObject({ enabled: false, impossible: true });
  });

  it('CHROMIUM_SANDBOX=off is off whatever the machine allows; =on is on whatever the try said', () => {
    expect(decideSandbox({ ...base, setting: 'off' })).toEqual({ enabled: false, runAsUid: undefined, reason: 'CHROMIUM_SANDBOX=off.' });
    const forced = decideSandbox({ ...base, setting: 'on', probe: refused });
    expect(forced).toMatchObject({ enabled: true, runAsUid: 65534 });
    expect(forced.reason).toMatch(/^CHROMIUM_SANDBOX=on forces the sandbox although .*Operation not permitted/);
  });
});

describe('renderSandboxMetric', () => {
  it('is a gauge with the reason as a label, quotes escaped', () => {
    const text = renderSandboxMetric({ enabled: false, runAsUid: undefined, reason: 'because "x" \\ y' });
    expect(text).toMatch(/^# TYPE agent_utility_browser_sandbox gauge$/m);
    expect(text).toMatch(/^agent_utility_browser_sandbox\{reason="because \\"x\\" \\\\ y"\} 0$/m);
    expect(renderSandboxMetric({ enabled: true, runAsUid: 65534, reason: 'ok' })).toMatch(/^agent_utility_browser_sandbox\{reason="ok"\} 1$/m);
    expect(renderSandboxMetric(undefined)).toBe('');
  });
});
