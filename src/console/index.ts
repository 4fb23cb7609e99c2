// The operator console at /console: server-rendered pages plus one small script, with uPlot (charts) and
// markdown-it (rendering Markdown results) served from the installed packages, so it works offline.
// Off unless ADMIN_TOKEN is set. Every page but sign-in needs a console session (see auth.ts).
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { artifactLinkVerifier } from '../artifacts/verified-link.js';
import { resolveSecret } from '../auth/secret.js';
import type { Config } from '../config.js';
import type { Engine } from '../engine/engine.js';
import { packageDir } from '../package-dir.js';
import { baseMap } from './base-map.js';
import { consoleAuthRoutes, signedIn, logoutRoute, requireConsoleSession } from './auth.js';
import { keyPages } from './keys.js';
import { leadPages, type LeadDirectory } from './leads.js';
import { overviewPages } from './overview.js';
import { playgroundPages } from './playground.js';
import { sqlRunnerOf } from './queries.js';
import { ConsoleSecrets } from './session.js';
import { taskPages } from './tasks.js';

export interface ConsoleDeps {
  engine: Engine;
  config: Config;
  /** The in-process lead service's store, when it runs here. */
  leads?: LeadDirectory | undefined;
}

const ASSETS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');

/** The console's own files and the vendored browser builds, by public name. */
function assetFiles(): Map<string, string> {
  const uplot = path.join(packageDir('uplot'), 'dist');
  const markdown = path.join(packageDir('markdown-it'), 'dist');
  return new Map([
    ['console.js', path.join(ASSETS_DIR, 'console.js')],
    ['console.css', path.join(ASSETS_DIR, 'console.css')],
    ['vendor/uPlot.iife.min.js', path.join(uplot, 'uPlot.iife.min.js')],
    ['vendor/uPlot.min.css', path.join(uplot, 'uPlot.min.css')],
    ['vendor/markdown-it.min.js', path.join(markdown, 'browser', 'markdown-it.umd.min.js')],
  ]);
}

/**
 * Where artifact previews may load from: the console's own origin and the origins file links point to
 * (PUBLIC_URL, STORAGE_URL and, with presigned downloads, the object store /files redirects to).
 */
export function storageOrigins(config: Config): string[] {
  const origins = new Set<string>();
  const add = (url: string | undefined) => {
    if (!url) return;
    try {
      origins.add(new URL(url).origin);
    } catch {
      // Config validated these; an unparsable one simply adds nothing.
    }
  };
  add(config.publicUrl);
  add(config.storageUrl);
  const s3 = config.artifacts.s3;
  if (config.artifacts.store === 's3' && s3.presignedDownloads) {
    if (s3.endpoint) add(s3.endpoint);
    else origins.add('https://*.amazonaws.com');
  }
  return [...origins];
}

/** Pages only load what the console serves; artifact previews only from the storage origins. */
export function consoleCsp(config: Config): string {
  const storage = storageOrigins(config).join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob: ${storage}`,
    `frame-src 'self' ${storage}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function securityHeaders(csp: string) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('X-Frame-Options', 'DENY');
    // 'same-origin' rather than 'no-referrer': with no-referrer, browsers send "Origin: null" on form posts.
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
}

export function consoleRouter(d: ConsoleDeps): Router | undefined {
  if (!d.config.adminToken) return undefined;
  const secrets = new ConsoleSecrets(d.config.adminToken);
  const store = d.engine.store;
  const sql = sqlRunnerOf(store);
  const authDeps = { secrets, store, publicUrl: d.config.publicUrl };
  const verifyArtifact = artifactLinkVerifier(resolveSecret(d.config));
  const r = Router();
  r.use(securityHeaders(consoleCsp(d.config)));

  // The geo plots' outlines: public data, asked for by the playground's script (see base-map.ts); before the
  // asset files' wildcard, which would answer 404.
  r.get('/assets/base-map.json', (_req, res, next) => {
    baseMap().then((m) => {
      res.setHeader('Cache-Control', 'public, max-age=86400');
      res.json(m);
    }, next);
  });

  const assets = assetFiles();
  r.get('/assets/*file', (req, res) => {
    const name = ([] as string[]).concat((req.params as { file: string | string[] }).file).join('/');
    const file = assets.get(name);
    if (!file) return res.status(404).type('text').send('Not found');
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.sendFile(file);
  });

  r.use(consoleAuthRoutes(authDeps));
  // A visitor without a session is turned away before any body is read; forms and the playground's JSON
  // are parsed before the CSRF check, which reads the token from either.
  r.use(signedIn(authDeps));
  r.use(express.urlencoded({ extended: false, limit: '16kb' }));
  r.use('/api', express.json({ limit: d.config.http.bodyLimitBytes }));
  r.use(requireConsoleSession(authDeps));
  r.use(logoutRoute(authDeps));
  r.use(overviewPages({ store, secrets, sql }));
  r.use(keyPages({ store, secrets, sql }));
  r.use(taskPages({ store, secrets, sql, tools: d.engine.registry.names, verifyArtifact }));
  r.use(leadPages({ secrets, leads: d.leads }));
  r.use(playgroundPages({ engine: d.engine, secrets, verifyArtifact }));
  return r;
}
