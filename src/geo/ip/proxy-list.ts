// The operator-supplied proxy list behind is_proxy (PROXY_LIST_FILE): one CIDR or single address per
// line (Tor exit lists, VPN ranges), `#` starts a comment. Held as sorted, merged ranges and searched
// by binary search. The file is re-read when it changes (checked at most once a minute), so a cron job
// can refresh it without a restart.
import fs from 'node:fs/promises';
import { compareV6, parseIp, type ParsedIp } from './ip-address.js';

export interface ProxyRanges {
  v4: { starts: Uint32Array; ends: Uint32Array };
  v6: { starts: Uint32Array; ends: Uint32Array; count: number };
  entries: number;
  /** Lines that were neither blank, a comment nor an address/CIDR (line numbers, first 20). */
  rejected: number[];
}

export function parseProxyList(text: string): ProxyRanges {
  const v4: [number, number][] = [];
  const v6: [Uint32Array, Uint32Array][] = [];
  const rejected: number[] = [];
  let entries = 0;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*/, '').trim();
    if (line === '') return;
    const range = parseEntry(line);
    if (!range) {
      if (rejected.length < 20) rejected.push(i + 1);
      return;
    }
    entries++;
    if (range.family === 4) v4.push([range.start, range.end]);
    else v6.push([range.start6, range.end6]);
  });

  v4.sort((a, b) => a[0] - b[0]);
  const m4: [number, number][] = [];
  for (const r of v4) {
    const last = m4[m4.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else m4.push([r[0], r[1]]);
  }

  v6.sort((a, b) => compareV6(a[0], 0, b[0], 0));
  const m6: [Uint32Array, Uint32Array][] = [];
  for (const r of v6) {
    const last = m6[m6.length - 1];
    // Overlapping or nested ranges merge; adjacent ones simply stay separate (still correct to search).
    if (last && compareV6(r[0], 0, last[1], 0) <= 0) {
      if (compareV6(r[1], 0, last[1], 0) > 0) last[1] = r[1];
    } else {
      m6.push([r[0], r[1]]);
    }
  }
  const starts6 = new Uint32Array(m6.length * 4);
  const ends6 = new Uint32Array(m6.length * 4);
  m6.forEach(([s, e], i) => {
    starts6.set(s, i * 4);
    ends6.set(e, i * 4);
  });
  return {
    v4: { starts: Uint32Array.from(m4, (r) => r[0]), ends: Uint32Array.from(m4, (r) => r[1]) },
    v6: { starts: starts6, ends: ends6, count: m6.length },
    entries,
    rejected,
  };
}

type Entry = { family: 4; start: number; end: number } | { family: 6; start6: Uint32Array; end6: Uint32Array };

function parseEntry(line: string): Entry | null {
  const [addr, bitsText, extra] = line.split('/');
  if (extra !== undefined || !addr) return null;
  const ip = parseIp(addr);
  if (!ip) return null;
  const max = ip.family === 4 ? 32 : 128;
  let bits = max;
  if (bitsText !== undefined) {
    if (!/^\d{1,3}$/.test(bitsText)) return null;
    bits = Number(bitsText);
    // A CIDR written on an IPv4-mapped IPv6 address counts its bits in IPv6 terms.
    if (ip.embeddedIn) bits -= 96;
    if (bits < 0 || bits > max) return null;
  }
  if (ip.family === 4) {
    const size = 2 ** (32 - bits);
    const start = Math.floor(ip.v4 / size) * size;
    return { family: 4, start, end: start + size - 1 };
  }
  const start6 = new Uint32Array(4);
  const end6 = new Uint32Array(4);
  for (let i = 0; i < 4; i++) {
    const keep = Math.max(0, Math.min(32, bits - i * 32));
    const mask = keep === 0 ? 0 : (0xffffffff << (32 - keep)) >>> 0;
    start6[i] = (ip.v6[i]! & mask) >>> 0;
    end6[i] = (start6[i]! | ~mask) >>> 0;
  }
  return { family: 6, start6, end6 };
}

export function inProxyRanges(r: ProxyRanges, ip: ParsedIp): boolean {
  if (ip.family === 4) {
    const { starts, ends } = r.v4;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (ip.v4 < starts[mid]!) hi = mid - 1;
      else if (ip.v4 > ends[mid]!) lo = mid + 1;
      else return true;
    }
    return false;
  }
  const { starts, ends, count } = r.v6;
  let lo = 0;
  let hi = count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (compareV6(ip.v6, 0, starts, mid * 4) < 0) hi = mid - 1;
    else if (compareV6(ip.v6, 0, ends, mid * 4) > 0) lo = mid + 1;
    else return true;
  }
  return false;
}

/** The list behind is_proxy; `contains` is synchronous, refreshes happen in the background. */
export class ProxyList {
  private ranges: ProxyRanges;
  private mtimeMs: number;
  private lastCheck = Date.now();
  private refreshing = false;

  private constructor(
    readonly file: string,
    ranges: ProxyRanges,
    mtimeMs: number,
    private readonly onRefreshError: (err: unknown) => void,
  ) {
    this.ranges = ranges;
    this.mtimeMs = mtimeMs;
  }

  static async load(file: string, onRefreshError: (err: unknown) => void = () => undefined): Promise<ProxyList> {
    const [text, stat] = await Promise.all([fs.readFile(file, 'utf8'), fs.stat(file)]);
    return new ProxyList(file, parseProxyList(text), stat.mtimeMs, onRefreshError);
  }

  get stats(): { entries: number; rejectedLines: number[] } {
    return { entries: this.ranges.entries, rejectedLines: this.ranges.rejected };
  }

  contains(ip: ParsedIp): boolean {
    this.maybeRefresh();
    return inProxyRanges(this.ranges, ip);
  }

  private maybeRefresh(): void {
    if (this.refreshing || Date.now() - this.lastCheck < 60_000) return;
    this.lastCheck = Date.now();
    this.refreshing = true;
    void this.refresh()
      .catch(this.onRefreshError)
      .finally(() => {
        this.refreshing = false;
      });
  }

  /** Re-reads the file if it changed since it was last read. */
  async refresh(): Promise<boolean> {
    const stat = await fs.stat(this.file);
    if (stat.mtimeMs === this.mtimeMs) return false;
    this.ranges = parseProxyList(await fs.readFile(this.file, 'utf8'));
    this.mtimeMs = stat.mtimeMs;
    return true;
  }
}
