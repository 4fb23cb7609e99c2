// Console sign-in and the guards every other console route sits behind: ADMIN_TOKEN or a one-time link
// starts a session (an HttpOnly, SameSite=Strict cookie, Secure behind https); every change needs the
// session's CSRF token and a same-origin request. API keys are never looked at here, so no API key
// reaches anything of the console.
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import ipaddr from 'ipaddr.js';
import type { TaskStore } from '../store/port.js';
import { RateLimiter } from '../web/rate-limit.js';
import { html, page } from './html.js';
import { SESSION_COOKIE, SESSION_TTL_MS, type ConsoleSecrets, type Session } from './session.js';

/** How long the store must remember a used link nonce; matches what sign-in with a wallet keeps. */
const USED_LINK_MEMORY_MS = 7 * 60_000;
/** Sign-in attempts (token or link) per client address per window. */
const LOGIN_LIMIT = 10;
const LOGIN_WINDOW_MS = 15 * 60_000;

declare module 'express-serve-static-core' {
  interface Request {
    consoleSession?: Session;
  }
}

export interface ConsoleAuthDeps {
  secrets: ConsoleSecrets;
  store: Pick<TaskStore, 'useSignInNonce' | 'consoleSessionEpoch' | 'endConsoleSessions'>;
  publicUrl: string;
}

/** A cookie's value; a malformed one (bad %-escapes) is no cookie at all, so its sender is signed out. */
export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * The request's session: a cookie with a valid signature, not expired, and issued after the last "Sign
 * out" (the store's session epoch, shared by every API node).
 */
export async function currentSession(req: Request, d: ConsoleAuthDeps): Promise<Session | null> {
  const now = Date.now();
  const session = d.secrets.readSession(readCookie(req, SESSION_COOKIE), now);
  if (!session) return null;
  const issuedAt = session.expiresAt - SESSION_TTL_MS;
  return issuedAt >= (await d.store.consoleSessionEpoch()) ? session : null;
}

/**
 * Who the sign-in limiter counts: an IPv4 address, or an IPv6 address's /64 (one subscriber usually holds
 * a whole /64, so counting single IPv6 addresses would give one client billions of tries).
 */
export function signInBucket(ip: string | undefined): string {
  if (!ip || !ipaddr.isValid(ip)) return 'unknown';
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  if (addr.kind() === 'ipv4') return addr.toString();
  const parts = (addr as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}

function isHttps(req: Request, publicUrl: string): boolean {
  return req.secure || publicUrl.startsWith('https:');
}

function setSessionCookie(req: Request, res: Response, value: string, maxAgeMs: number, publicUrl: string): void {
  const attrs = [`${SESSION_COOKIE}=${value}`, 'Path=/console', 'HttpOnly', 'SameSite=Strict', `Max-Age=${Math.floor(maxAgeMs / 1000)}`];
  if (isHttps(req, publicUrl)) attrs.push('Secure');
  res.append('Set-Cookie', attrs.join('; '));
}

/** The origins this console is served from: the request's own and the configured public URL's. */
function ownOrigins(req: Request, publicUrl: string): string[] {
  const origins = [`${req.protocol}://${req.get('host') ?? ''}`];
  try {
    origins.push(new URL(publicUrl).origin);
  } catch {
    // an unparsable PUBLIC_URL is refused by config loading; nothing to add
  }
  return origins;
}

/** Refuses requests another site made the browser send: a foreign Origin, or Sec-Fetch-Site cross-site. */
export function sameOrigin(req: Request, publicUrl: string): boolean {
  const site = req.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.get('origin');
  if (origin && !ownOrigins(req, publicUrl).includes(origin)) return false;
  return true;
}

function loginPage(message?: string, status = 200): { status: number; body: string } {
  const body = html`${message ? html`<p class="error" role="alert">${message}</p>` : html``}
    <form method="post" action="/console/login" class="card narrow">
      <label for="token">Operator token (ADMIN_TOKEN)</label>
      <input id="token" name="token" type="password" autocomplete="current-password" required autofocus />
      <button type="submit">Sign in</button>
    </form>
    <p class="hint">Or run <code>agent-utility admin login</code> on the server for a one-time sign-in link.</p>`;
  return { status, body: page({ title: 'Sign in', body }) };
}

export function consoleAuthRoutes(d: ConsoleAuthDeps): Router {
  const r = Router();
  const limiter = new RateLimiter(LOGIN_LIMIT, LOGIN_WINDOW_MS);
  // The one-time link has a bucket of its own: wrong tokens typed at the form never lock the operator out
  // of the link that `agent-utility admin login` prints.
  const limited = (req: Request, res: Response, kind: 'token' | 'link' = 'token'): boolean => {
    const hit = limiter.hit(`console-${kind}:${signInBucket(req.ip)}`);
    if (hit.allowed) return false;
    res.setHeader('Retry-After', String(hit.resetS));
    const p = loginPage(`Too many sign-in attempts; try again in ${hit.resetS} s.`, 429);
    res.status(p.status).type('html').send(p.body);
    return true;
  };
  const startSession = (req: Request, res: Response) => {
    const { cookie } = d.secrets.newSession(Date.now());
    setSessionCookie(req, res, cookie, SESSION_TTL_MS, d.publicUrl);
    res.redirect(303, '/console');
  };

  r.get('/login', async (req, res) => {
    if (await currentSession(req, d)) return res.redirect(303, '/console');
    const p = loginPage();
    res.status(p.status).type('html').send(p.body);
  });

  r.post('/login', express.urlencoded({ extended: false, limit: '4kb' }), (req, res) => {
    if (!sameOrigin(req, d.publicUrl)) {
      res.status(403).type('html').send(loginPage('Sign-in must come from the console page itself.', 403).body);
      return;
    }
    if (limited(req, res)) return;
    const token = typeof req.body?.token === 'string' ? req.body.token : '';
    if (!token || !d.secrets.tokenMatches(token)) {
      const p = loginPage('That is not the operator token.', 401);
      res.status(p.status).type('html').send(p.body);
      return;
    }
    startSession(req, res);
  });

  // A one-time link from `agent-utility admin login`: the first visit starts a session, later ones do not.
  r.get('/login/link', async (req, res) => {
    if (limited(req, res, 'link')) return;
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const now = Date.now();
    const link = d.secrets.readLinkToken(token, now);
    const fresh = link && (await d.store.useSignInNonce(`console-link:${link.nonce}`, now, now - USED_LINK_MEMORY_MS));
    if (!fresh) {
      const p = loginPage('This sign-in link is invalid, expired or already used; run agent-utility admin login for a new one.', 401);
      res.status(p.status).type('html').send(p.body);
      return;
    }
    startSession(req, res);
  });

  return r;
}

function signInFirst(req: Request, res: Response): void {
  if (req.path.startsWith('/api/') || req.method !== 'GET')
    res.status(401).json({ error: 'Sign in to the console first.', code: 'CONSOLE_SIGN_IN_REQUIRED', retry: false });
  else res.redirect(303, '/console/login');
}

/** Turns a visitor without a session away before anything reads the request's body. */
export function signedIn(d: ConsoleAuthDeps) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const session = await currentSession(req, d);
    if (!session) return signInFirst(req, res);
    req.consoleSession = session;
    next();
  };
}

/** Everything after this needs a session; changes also need the CSRF token and a same-origin request. */
export function requireConsoleSession(d: ConsoleAuthDeps) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const session = req.consoleSession ?? (await currentSession(req, d));
    if (!session) return signInFirst(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const given = req.get('x-csrf-token') ?? (typeof req.body?._csrf === 'string' ? (req.body._csrf as string) : undefined);
      if (!sameOrigin(req, d.publicUrl) || !d.secrets.csrfMatches(session, given)) {
        res
          .status(403)
          .json({ error: 'Refused: the request did not come from a console page (missing or wrong CSRF token).', code: 'CSRF_REFUSED', retry: false });
        return;
      }
    }
    req.consoleSession = session;
    next();
  };
}

export function logoutRoute(d: ConsoleAuthDeps): Router {
  const r = Router();
  // Ends every console session on every node (the cookie alone cannot be recalled once copied).
  r.post('/logout', async (req, res) => {
    await d.store.endConsoleSessions(Date.now());
    setSessionCookie(req, res, '', 0, d.publicUrl);
    res.redirect(303, '/console/login');
  });
  return r;
}
