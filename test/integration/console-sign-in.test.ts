// Console sign-in hardening (issue #26 item 6, G7), over plain HTTP against the real server: a malformed
// session cookie is a signed-out visitor (never a 500), "Sign out" ends the session on the server (a
// copied cookie stops working), the limiter counts an IPv6 client by its /64 and the one-time link has a
// bucket of its own, and ADMIN_TOKEN must be 32+ characters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { SESSION_COOKIE, ConsoleSecrets } from '../../src/console/session.js';
import { startHttpServer, type RunningServer } from '../../src/http/server.js';
import { createLogger } from '../../src/logger.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { buildFrontDoors, type FrontDoors } from '../../src/server/front-doors.js';
import { onFreePort } from '../support/free-port.js';
import { testConfig } from '../support/tool-context.js';

const ADMIN_TOKEN = 'console-sign-in-test-token-0123456789abcdef';
const secrets = new ConsoleSecrets(ADMIN_TOKEN);

let doors: FrontDoors;
let rt: Runtime;
let server: RunningServer;
let base: string;

beforeAll(async () => {
  await onFreePort(async (port) => {
    // TRUST_PROXY=1: the test names the client address in X-Forwarded-For, as a proxy in front would.
    const config = testConfig({ PORT: String(port), ADMIN_TOKEN, LEADS_PORT: '0', TRUST_PROXY: '1' });
    const log = createLogger(config.logLevel);
    doors = await buildFrontDoors(config, log);
    rt = await createRuntime(doors.config, { log });
    try {
      server = await startHttpServer(rt, await doors.httpOptions(rt));
    } catch (err) {
      await rt.close();
      await doors.close();
      throw err;
    }
  });
  base = server.url;
});
afterAll(async () => {
  await server?.close();
  await rt?.close();
  await doors?.close();
});

function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}${path}`, { headers, redirect: 'manual' });
}

function postForm(path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  });
}

function sessionCookie(res: Response): string {
  const set = res.headers.get('set-cookie') ?? '';
  const m = new RegExp(`${SESSION_COOKIE}=([^;]*)`).exec(set);
  if (!m?.[1]) throw new Error(`no session cookie in ${set}`);
  return m[1];
}

describe('console sign-in', () => {
  it('treats a malformed cookie as a signed-out visitor, never a 500', async () => {
    for (const cookie of [`${SESSION_COOKIE}=%E0%A4%A`, `${SESSION_COOKIE}=%`, `${SESSION_COOKIE}=a.b.c`, `${SESSION_COOKIE}=${'x'.repeat(5000)}`]) {
      const page = await get('/console', { cookie });
      expect(page.status, cookie).toBe(303);
      expect(page.headers.get('location')).toBe('/console/login');
      const login = await get('/console/login', { cookie });
      expect(login.status, cookie).toBe(200);
      const api = await fetch(`${base}/console/api/run`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: '{}' });
      expect(api.status, cookie).toBe(401);
    }
  });

  it('"Sign out" ends the session on the server: the same cookie no longer opens the console', async () => {
    const signIn = await postForm('/console/login', { token: ADMIN_TOKEN }, { 'x-forwarded-for': '192.0.2.1' });
    expect(signIn.status).toBe(303);
    const cookie = sessionCookie(signIn);
    expect((await get('/console', { cookie: `${SESSION_COOKIE}=${cookie}` })).status).toBe(200);
    const session = secrets.readSession(cookie, Date.now())!;
    const out = await postForm('/console/logout', { _csrf: secrets.csrfToken(session) }, { cookie: `${SESSION_COOKIE}=${cookie}` });
    expect(out.status).toBe(303);
    // A copy of the cookie (another tab, a stolen one) is refused from now on, on every node.
    const after = await get('/console', { cookie: `${SESSION_COOKIE}=${cookie}` });
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe('/console/login');
    // Signing in again works.
    const again = await postForm('/console/login', { token: ADMIN_TOKEN }, { 'x-forwarded-for': '192.0.2.1' });
    expect((await get('/console', { cookie: `${SESSION_COOKIE}=${sessionCookie(again)}` })).status).toBe(200);
  });

  it('counts an IPv6 client by its /64, and the one-time link keeps its own bucket', async () => {
    for (let i = 1; i <= 10; i++) {
      const r = await postForm('/console/login', { token: 'wrong-token' }, { 'x-forwarded-for': `2001:db8:1:2::${i.toString(16)}` });
      expect(r.status).toBe(401);
    }
    // Another address of the same /64 gets no fresh tries; another /64 does.
    expect((await postForm('/console/login', { token: ADMIN_TOKEN }, { 'x-forwarded-for': '2001:db8:1:2:ffff::1' })).status).toBe(429);
    expect((await postForm('/console/login', { token: 'wrong-token' }, { 'x-forwarded-for': '2001:db8:1:3::1' })).status).toBe(401);
    // The operator's one-time link from the locked-out /64 still signs in.
    const link = await get(`/console/login/link?token=${encodeURIComponent(secrets.newLinkToken(Date.now()))}`, { 'x-forwarded-for': '2001:db8:1:2::1' });
    expect(link.status).toBe(303);
    expect(link.headers.get('location')).toBe('/console');
  });

  it('ADMIN_TOKEN shorter than 32 characters stops start-up with a clear configuration error', () => {
    for (const token of ['aaaaaaaaaaaaaaaa', 'x'.repeat(31)]) {
      expect(() => testConfig({ ADMIN_TOKEN: token })).toThrow(ConfigError);
      expect(() => testConfig({ ADMIN_TOKEN: token })).toThrow(/ADMIN_TOKEN.*at least 32 characters/);
    }
    expect(testConfig({ ADMIN_TOKEN: 'x'.repeat(32) }).adminToken).toHaveLength(32);
  });
});

describe('task pages', () => {
  it("mask the values of a task input's headers and cookies (G8), at any depth", async () => {
    const id = `task_mask${Date.now().toString(36)}`;
    // A tool no worker runs: the row only has to be shown.
    await rt.store.createTask({
      id,
      tool: 'console.mask-check',
      input: {
        url: 'https://example.com/',
        headers: { Authorization: 'Bearer header-secret-1234' },
        cookies: [{ name: 'sid', value: 'cookie-secret-5678', domain: 'example.com' }],
        render: { headers: { 'X-Api-Key': 'nested-secret-9012' } },
      },
      payer: { kind: 'key', id: 'key_mask' },
      priceMicros: 0,
      maxAttempts: 1,
      now: Date.now(),
    });
    const signIn = await postForm('/console/login', { token: ADMIN_TOKEN }, { 'x-forwarded-for': '192.0.2.77' });
    const page = await get(`/console/tasks/${id}`, { cookie: `${SESSION_COOKIE}=${sessionCookie(signIn)}` });
    expect(page.status).toBe(200);
    const text = await page.text();
    for (const secret of ['header-secret-1234', 'cookie-secret-5678', 'nested-secret-9012']) expect(text).not.toContain(secret);
    // Names stay visible, values show their length only.
    expect(text).toContain('Authorization');
    expect(text).toContain('sid');
    expect(text).toContain('https://example.com/');
    expect(text).toContain('(25 characters)');
  });
});
