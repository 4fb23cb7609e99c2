// Keys: list, create (the secret is shown once), credit, revoke, and one key's usage by tool.
import express, { Router, type Request, type Response } from 'express';
import { createApiKey } from '../billing/api-keys.js';
import { microsToUsd, usdToMicros } from '../registry/registry.js';
import type { ApiKeyRow, TaskStore } from '../store/port.js';
import type { ConsoleSecrets } from './session.js';
import { html, iso, page, type Html } from './html.js';
import { recentKeyPurchases, type SqlRunner } from './queries.js';

export interface KeyPagesDeps {
  store: TaskStore;
  secrets: ConsoleSecrets;
  sql: SqlRunner | undefined;
}

const USD = /^\d{1,9}(\.\d{1,6})?$/;

function csrfOf(req: Request, d: KeyPagesDeps): string {
  return d.secrets.csrfToken(req.consoleSession!);
}

function keyRows(keys: ApiKeyRow[], csrf: string): Html {
  if (keys.length === 0) return html`<p>No keys yet.</p>`;
  return html`<table>
    <caption>
      API keys
    </caption>
    <thead>
      <tr>
        <th scope="col">Key</th>
        <th scope="col">Label</th>
        <th scope="col">Credits (USD)</th>
        <th scope="col">Created</th>
        <th scope="col">State</th>
        <th scope="col">Actions</th>
      </tr>
    </thead>
    <tbody>
      ${keys.map(
        (k) =>
          html`<tr data-key-id="${k.id}">
            <td>
              <a href="/console/keys/${k.id}"><code>${k.prefix}…</code></a
              ><br /><small>${k.id}</small>
            </td>
            <td>${k.label ?? ''}</td>
            <td>${microsToUsd(k.balanceMicros)}</td>
            <td>${iso(k.createdAt)}</td>
            <td>${k.revokedAt ? `revoked ${iso(k.revokedAt)}` : 'active'}</td>
            <td>
              ${
                k.revokedAt
                  ? ''
                  : html`<form method="post" action="/console/keys/${k.id}/credit" class="inline">
                        <input type="hidden" name="_csrf" value="${csrf}" />
                        <label
                          >Add USD
                          <input name="usd" inputmode="decimal" size="6" required pattern="\\d{1,9}(\\.\\d{1,6})?" aria-label="Credits to add to ${k.prefix}"
                        /></label>
                        <button type="submit">Credit</button>
                      </form>
                      <form method="post" action="/console/keys/${k.id}/revoke" class="inline">
                        <input type="hidden" name="_csrf" value="${csrf}" /><button type="submit" class="danger" aria-label="Revoke ${k.prefix}">Revoke</button>
                      </form>`
              }
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

export function keyPages(d: KeyPagesDeps): Router {
  const r = Router();
  const form = express.urlencoded({ extended: false, limit: '8kb' });

  const listPage = async (req: Request, res: Response, notice?: Html, status = 200) => {
    const csrf = csrfOf(req, d);
    const keys = await d.store.listKeys();
    const purchases = d.sql ? await recentKeyPurchases(d.sql, 20) : [];
    const body = html`${notice ?? html``}
      <section class="card">
        <h2>Create a key</h2>
        <form method="post" action="/console/keys" id="create-key">
          <input type="hidden" name="_csrf" value="${csrf}" /> <label for="label">Label</label><input id="label" name="label" maxlength="100" />
          <label for="credits">Credits (USD)</label><input id="credits" name="credits" inputmode="decimal" required value="5" />
          <button type="submit">Create key</button>
        </form>
      </section>
      <section>${keyRows(keys, csrf)}</section>
      ${
        purchases.length
          ? html`<section>
              <h2>Bought with x402</h2>
              <table>
                <caption>
                  Recent key purchases
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Purchase</th>
                    <th scope="col">Kind</th>
                    <th scope="col">Key</th>
                    <th scope="col">Wallet</th>
                    <th scope="col">USD</th>
                    <th scope="col">Status</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  ${purchases.map(
                    (p) =>
                      html`<tr>
                        <td>${p.id}</td>
                        <td>${p.kind}</td>
                        <td>${p.keyId ?? ''}</td>
                        <td><code>${p.wallet}</code></td>
                        <td>${microsToUsd(p.micros)}</td>
                        <td>${p.status}</td>
                        <td>${iso(p.createdAt)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </section>`
          : html``
      }`;
    res
      .status(status)
      .type('html')
      .send(page({ title: 'Keys', current: '/console/keys', csrf, body }));
  };

  r.get('/keys', (req, res) => listPage(req, res));

  r.post('/keys', form, async (req, res) => {
    const credits = String(req.body?.credits ?? '').trim();
    const label = String(req.body?.label ?? '')
      .trim()
      .slice(0, 100);
    if (!USD.test(credits)) return listPage(req, res, html`<p class="error" role="alert">credits: must be a USD amount such as "5" or "0.25".</p>`, 400);
    const { key, row } = await createApiKey(d.store, { creditsMicros: usdToMicros(credits), label: label || null });
    await listPage(
      req,
      res,
      html`<div class="notice" role="status">
        <p>Created key <strong>${row.id}</strong> with ${microsToUsd(row.balanceMicros)} USD. Copy the secret now: it is not shown again.</p>
        <p><label for="new-secret">Secret</label> <input id="new-secret" readonly value="${key}" size="60" /></p>
      </div>`,
      201,
    );
  });

  r.post('/keys/:id/credit', form, async (req, res) => {
    const usd = String(req.body?.usd ?? '').trim();
    if (!USD.test(usd) || usdToMicros(usd) <= 0)
      return listPage(req, res, html`<p class="error" role="alert">usd: must be a USD amount above 0 such as "5".</p>`, 400);
    const key = await d.store.creditKey(String(req.params.id), usdToMicros(usd), 'console', Date.now());
    if (!key) return listPage(req, res, html`<p class="error" role="alert">key: no such key.</p>`, 404);
    await listPage(req, res, html`<p class="notice" role="status">Added ${usd} USD to ${key.prefix}…; it now has ${microsToUsd(key.balanceMicros)} USD.</p>`);
  });

  r.post('/keys/:id/revoke', form, async (req, res) => {
    const key = await d.store.revokeKey(String(req.params.id), Date.now());
    if (!key) return listPage(req, res, html`<p class="error" role="alert">key: no such key.</p>`, 404);
    await listPage(req, res, html`<p class="notice" role="status">Revoked ${key.prefix}….</p>`);
  });

  r.get('/keys/:id', async (req, res) => {
    const key = await d.store.findKey(String(req.params.id));
    if (!key)
      return res
        .status(404)
        .type('html')
        .send(page({ title: 'Key not found', csrf: csrfOf(req, d), body: html`<p>No key ${req.params.id}.</p>` }));
    const payer = { kind: 'key' as const, id: key.id };
    const [usage, tasks] = await Promise.all([
      d.store.usage({ payer, from: 0, to: Date.now() + 1, group: 'tool' }),
      d.store.listTasks({ payer, limit: 20, resultBudgetBytes: 0 }),
    ]);
    const body = html`<p>
        <code>${key.prefix}…</code> (${key.id}) · ${key.label ?? 'no label'} · ${microsToUsd(key.balanceMicros)} USD left ·
        ${key.revokedAt ? 'revoked' : 'active'}
      </p>
      <table>
        <caption>
          Usage by tool (tasks still kept)
        </caption>
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col">Tasks</th>
            <th scope="col">Failed</th>
            <th scope="col">Cancelled</th>
            <th scope="col">Charged USD</th>
            <th scope="col">Refunded USD</th>
          </tr>
        </thead>
        <tbody>
          ${usage.map(
            (u) =>
              html`<tr>
                <td>${u.bucket}</td>
                <td>${u.tasks}</td>
                <td>${u.failed}</td>
                <td>${u.cancelled}</td>
                <td>${microsToUsd(u.chargedMicros)}</td>
                <td>${microsToUsd(u.refundedMicros)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
      <h2>Recent tasks</h2>
      <ul>
        ${tasks.map((t) => html`<li><a href="/console/tasks/${t.id}">${t.id}</a> ${t.tool} · ${t.status} · ${iso(t.createdAt)}</li>`)}
      </ul>`;
    res.type('html').send(page({ title: `Key ${key.prefix}…`, current: '/console/keys', csrf: csrfOf(req, d), body }));
  });
  return r;
}
