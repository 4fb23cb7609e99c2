// The facts sandbox-decision.ts decides from, gathered from this machine: the sysctls that govern
// unprivileged user namespaces, whether setpriv is installed, and one real try at creating user, PID and
// network namespaces (what Chromium's sandbox does first) as the uid Chromium would run as.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type { SandboxFacts, SandboxProbe, SandboxSetting } from './sandbox-decision.js';

const SETPRIV_CANDIDATES = ['/usr/bin/setpriv', '/bin/setpriv', '/usr/sbin/setpriv'];
const UNSHARE_CANDIDATES = ['/usr/bin/unshare', '/bin/unshare', '/usr/sbin/unshare'];

export const findSetpriv = (): string | undefined => SETPRIV_CANDIDATES.find((p) => fs.existsSync(p));

/** setpriv's arguments that make the rest of the command line run as `uid`, with no capabilities. */
export const dropTo = (uid: number): string[] => [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all'];

function sysctl(file: string): number | undefined {
  try {
    const n = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isFinite(n) ? n : undefined;
  } catch {
    return undefined;
  }
}

/** Namespaces as Chromium's sandbox makes them, as `uid` when this process is root (through setpriv). */
function probe(processUid: number | undefined, sandboxUid: number, setpriv: string | undefined): SandboxProbe {
  if (process.platform !== 'linux') return { outcome: 'not_tried', detail: `not Linux (${process.platform})` };
  const unshare = UNSHARE_CANDIDATES.find((p) => fs.existsSync(p));
  if (!unshare) return { outcome: 'not_tried', detail: 'unshare (util-linux) is not installed' };
  const inner = [unshare, '--user', '--map-root-user', '--pid', '--net', '--fork', 'true'];
  const asRoot = processUid === 0;
  if (asRoot && !setpriv) return { outcome: 'not_tried', detail: 'setpriv (util-linux) is not installed' };
  const [cmd, ...args] = asRoot ? [setpriv!, ...dropTo(sandboxUid), ...inner] : inner;
  const r = spawnSync(cmd!, args, { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.error) return { outcome: 'refused', detail: r.error.message };
  if (r.status === 0) return { outcome: 'ok' };
  const said = (r.stderr ?? '').trim().split('\n')[0]?.slice(0, 200);
  return { outcome: 'refused', detail: said || `unshare exited with ${r.status ?? r.signal}` };
}

export function gatherSandboxFacts(o: { setting: SandboxSetting; uid: number }): SandboxFacts {
  const processUid = process.getuid?.();
  const setpriv = findSetpriv();
  return {
    setting: o.setting,
    platform: process.platform,
    processUid,
    sandboxUid: o.uid,
    setpriv,
    maxUserNamespaces: sysctl('/proc/sys/user/max_user_namespaces'),
    unprivilegedUsernsClone: sysctl('/proc/sys/kernel/unprivileged_userns_clone'),
    apparmorRestrictsUserns: sysctl('/proc/sys/kernel/apparmor_restrict_unprivileged_userns'),
    // Off: nothing to try.
    probe: o.setting === 'off' ? { outcome: 'not_tried', detail: 'CHROMIUM_SANDBOX=off' } : probe(processUid, o.uid, setpriv),
  };
}
