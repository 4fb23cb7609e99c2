// Which discovered URLs belong to a map or crawl: the start page's host (or site, or its subdomains) and
// the caller's include/exclude globs on the path. Site means the registrable domain (public-suffix aware),
// or the host itself for IP addresses and names without one (localhost).
import picomatch from 'picomatch';
import { getDomain } from 'tldts';

export interface ScopeOptions {
  /** Only URLs of the start page's site (default true). */
  same_site: boolean;
  /** With same_site: also other hosts of the site (blog.example.com for www.example.com). */
  subdomains: boolean;
  include?: readonly string[] | undefined;
  exclude?: readonly string[] | undefined;
}

export function siteOf(hostname: string): string {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

export type PathMatcher = (path: string) => boolean;

/** One matcher for a list of globs on the path ("/docs/**", "*.pdf" matches at any depth). */
export function globMatcher(globs: readonly string[]): PathMatcher {
  const matchers = globs.map((g) => picomatch(g.startsWith('/') ? g : `**/${g}`, { dot: true, nocase: false }));
  return (path) => matchers.some((m) => m(path));
}

export class UrlScope {
  private readonly startHost: string;
  private readonly startSite: string;
  private readonly include: PathMatcher | undefined;
  private readonly exclude: PathMatcher | undefined;

  constructor(
    start: string,
    private readonly o: ScopeOptions,
  ) {
    const url = new URL(start);
    this.startHost = url.hostname;
    this.startSite = siteOf(url.hostname);
    this.include = o.include?.length ? globMatcher(o.include) : undefined;
    this.exclude = o.exclude?.length ? globMatcher(o.exclude) : undefined;
  }

  /** True when `url` (normalised) is on the allowed hosts and passes the path filters. */
  allows(url: string): boolean {
    const u = new URL(url);
    if (!this.hostAllowed(u.hostname)) return false;
    return this.pathAllowed(u.pathname);
  }

  hostAllowed(hostname: string): boolean {
    if (!this.o.same_site) return true;
    if (hostname === this.startHost) return true;
    return this.o.subdomains && siteOf(hostname) === this.startSite;
  }

  pathAllowed(pathname: string): boolean {
    let path = pathname;
    try {
      path = decodeURIComponent(pathname);
    } catch {
      // A stray "%" stays as it is.
    }
    if (this.exclude?.(path)) return false;
    return this.include ? this.include(path) : true;
  }
}
