// Tasks: search every caller's tasks by id, tool, status or payer; one task's input, result, error,
// attempts and payment, with its artifacts (signed file links) previewed inline.
import { maskSecrets } from './mask-secrets.js';
import { Router, type Request } from 'express';
import type { ArtifactLinkVerifier } from '../artifacts/verified-link.js';
import { verifiedArtifactsIn } from '../artifacts/verified-link.js';
import { toTaskView } from '../engine/task-view.js';
import { microsToUsd } from '../registry/registry.js';
import type { TaskStatus, TaskStore } from '../store/port.js';
import type { ConsoleSecrets } from './session.js';
import { html, iso, page, type Html } from './html.js';
import { searchTasks, type SqlRunner, type TaskSummary } from './queries.js';

const STATUSES: TaskStatus[] = ['pending', 'running', 'complete', 'failed', 'cancelled'];

export interface TaskPagesDeps {
  store: TaskStore;
  secrets: ConsoleSecrets;
  sql: SqlRunner | undefined;
  tools: string[];
  /** Recognises the artifact links the service signed; nothing else in a result is previewed. */
  verifyArtifact: ArtifactLinkVerifier;
}

/**
 * Artifact links anywhere in a result whose signature verifies. A result holds what a tool returned, and
 * some tools return names and values a caller chose, so an unsigned file_url is only text.
 */
export function artifactsIn(value: unknown, verify: ArtifactLinkVerifier): { url: string; type: string }[] {
  return verifiedArtifactsIn(value, verify).map((a) => ({ url: a.fileUrl, type: a.contentType }));
}

// The PDF frame is sandboxed (no scripts, its own opaque origin) so even a file that is not what its
// content type says cannot act as the console.
function preview(a: { url: string; type: string }): Html {
  if (a.type.startsWith('image/'))
    return html`<figure>
      <img src="${a.url}" alt="Artifact image (${a.type})" loading="lazy" />
      <figcaption><a href="${a.url}" rel="noopener noreferrer">${a.type}</a></figcaption>
    </figure>`;
  if (a.type === 'application/pdf')
    return html`<figure>
      <iframe src="${a.url}" title="PDF artifact" class="pdf" sandbox=""></iframe>
      <figcaption><a href="${a.url}" rel="noopener noreferrer">PDF</a></figcaption>
    </figure>`;
  return html`<p><a href="${a.url}" rel="noopener noreferrer">Download ${a.type}</a></p>`;
}

const json = (v: unknown) => JSON.stringify(v, null, 2);

function payerText(t: { payer: { kind: string; id: string | null } }): string {
  return `${t.payer.kind}${t.payer.id ? `:${t.payer.id}` : ''}`;
}

export function taskPages(d: TaskPagesDeps): Router {
  const r = Router();
  const csrfOf = (req: Request) => d.secrets.csrfToken(req.consoleSession!);

  r.get('/tasks', async (req, res) => {
    const q = (k: string) => (typeof req.query[k] === 'string' ? (req.query[k] as string).trim() : '');
    const status = STATUSES.includes(q('status') as TaskStatus) ? (q('status') as TaskStatus) : undefined;
    let rows: TaskSummary[] = [];
    if (d.sql) {
      rows = await searchTasks(d.sql, {
        ...(q('id') ? { id: q('id') } : {}),
        ...(q('tool') ? { tool: q('tool') } : {}),
        ...(status ? { status } : {}),
        ...(q('payer') ? { payer: q('payer') } : {}),
        limit: 100,
      });
    } else if (q('id')) {
      const t = await d.store.getTask(q('id'));
      if (t) rows = [{ ...t, payerKind: t.payer.kind, payerId: t.payer.id }];
    }
    const body = html`<form method="get" action="/console/tasks" class="card search" role="search">
        <label for="q-id">Task id</label><input id="q-id" name="id" value="${q('id')}" /> <label for="q-tool">Tool</label
        ><select id="q-tool" name="tool">
          <option value="">any</option>
          ${d.tools.map((t) => html`<option${t === q('tool') ? html` selected` : html``}>${t}</option>`)}
        </select>
        <label for="q-status">Status</label
        ><select id="q-status" name="status">
          <option value="">any</option>
          ${STATUSES.map((s) => html`<option${s === status ? html` selected` : html``}>${s}</option>`)}
        </select>
        <label for="q-payer">Payer (key id or wallet)</label><input id="q-payer" name="payer" value="${q('payer')}" /> <button type="submit">Search</button>
      </form>
      ${
        rows.length === 0
          ? html`<p>No matching tasks.</p>`
          : html`<table>
              <caption>
                Tasks, newest first
              </caption>
              <thead>
                <tr>
                  <th scope="col">Task</th>
                  <th scope="col">Tool</th>
                  <th scope="col">Status</th>
                  <th scope="col">Payer</th>
                  <th scope="col">Created</th>
                  <th scope="col">Attempts</th>
                </tr>
              </thead>
              <tbody>
                ${rows.map(
                  (t) =>
                    html`<tr>
                      <td><a href="/console/tasks/${t.id}">${t.id}</a></td>
                      <td>${t.tool}</td>
                      <td class="status-${t.status}">${t.status}</td>
                      <td>${payerText({ payer: { kind: t.payerKind, id: t.payerId } })}</td>
                      <td>${iso(t.createdAt)}</td>
                      <td>${t.attempts}/${t.maxAttempts}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }`;
    res.type('html').send(page({ title: 'Tasks', current: '/console/tasks', csrf: csrfOf(req), body }));
  });

  r.get('/tasks/:id', async (req, res) => {
    const t = await d.store.getTask(String(req.params.id));
    if (!t)
      return res
        .status(404)
        .type('html')
        .send(
          page({
            title: 'Task not found',
            current: '/console/tasks',
            csrf: csrfOf(req),
            body: html`<p>No task ${req.params.id} (it may have been deleted by retention).</p>`,
          }),
        );
    const artifacts = t.status === 'complete' ? artifactsIn(t.result, d.verifyArtifact) : [];
    const body = html`<dl class="facts">
        <dt>Tool</dt>
        <dd>${t.tool}</dd>
        <dt>Status</dt>
        <dd class="status-${t.status}">${t.status}${t.errorKind ? ` (${t.errorKind})` : ''}</dd>
        <dt>Payer</dt>
        <dd>${payerText(t)}</dd>
        <dt>Price</dt>
        <dd>${microsToUsd(t.priceMicros)} USD (charged ${microsToUsd(t.chargedMicros)})</dd>
        <dt>Attempts</dt>
        <dd>${t.attempts} of ${t.maxAttempts}</dd>
        <dt>Created</dt>
        <dd>${iso(t.createdAt)}</dd>
        <dt>Started</dt>
        <dd>${iso(t.startedAt)}</dd>
        <dt>Finished</dt>
        <dd>${iso(t.finishedAt)}</dd>
      </dl>
      ${
        t.error
          ? html`<h2>Error</h2>
              <p class="error">${t.error}</p>`
          : html``
      }
      ${
        artifacts.length
          ? html`<h2>Artifacts</h2>
              ${artifacts.map(preview)}`
          : html``
      }
      <h2>Input</h2>
      <pre>${json(maskSecrets(t.input))}</pre>
      ${
        t.status === 'complete'
          ? html`<h2>Result</h2>
              <pre>${json(toTaskView(t).result)}</pre>`
          : html``
      }
      ${
        t.payment
          ? html`<h2>Payment</h2>
              <pre>${json(t.payment)}</pre>`
          : html``
      }`;
    res.type('html').send(page({ title: `Task ${t.id}`, current: '/console/tasks', csrf: csrfOf(req), body }));
  });
  return r;
}
