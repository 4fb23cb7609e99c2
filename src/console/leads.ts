// Lead service: the directory (how many pros, demo or imported) and the newest requests with the delivery
// status of each notification. Only when the lead service runs in this process.
import { Router } from 'express';
import type { ConsoleSecrets } from './session.js';
import { html, iso, page } from './html.js';
import { recentLeadRequests, sqlRunnerOf } from './queries.js';

/** What this page reads of the lead service's store (structurally the leads store; the console does not import it). */
export interface LeadDirectory {
  directoryStats(): Promise<{ total: number; demo: number }>;
  listDeliveries(requestId: string): Promise<{ channel: string; status: string; attempts: number; lastError: string | null }[]>;
}

export interface LeadPagesDeps {
  secrets: ConsoleSecrets;
  leads: LeadDirectory | undefined;
}

export function leadPages(d: LeadPagesDeps): Router {
  const r = Router();
  const sql = d.leads ? sqlRunnerOf(d.leads) : undefined;
  r.get('/leads', async (req, res) => {
    const csrf = d.secrets.csrfToken(req.consoleSession!);
    if (!d.leads) {
      const body = html`<p>The lead service does not run in this process (LEADS_BASE_URL points elsewhere, or this is a worker node).</p>`;
      return res.type('html').send(page({ title: 'Lead service', current: '/console/leads', csrf, body }));
    }
    const stats = await d.leads.directoryStats();
    const requests = sql ? await recentLeadRequests(sql, 50) : [];
    const deliveries = await Promise.all(requests.map((q) => d.leads!.listDeliveries(q.id)));
    const body = html`<dl class="facts">
        <dt>Pros</dt>
        <dd id="pros-total">${stats.total}</dd>
        <dt>Demo pros</dt>
        <dd>${stats.demo}</dd>
        <dt>Imported pros</dt>
        <dd>${stats.total - stats.demo}</dd>
      </dl>
      ${
        requests.length === 0
          ? html`<p>No requests yet.</p>`
          : html`<table>
              <caption>
                Newest requests and their notifications
              </caption>
              <thead>
                <tr>
                  <th scope="col">Request</th>
                  <th scope="col">Pro</th>
                  <th scope="col">Category</th>
                  <th scope="col">ZIP</th>
                  <th scope="col">Created</th>
                  <th scope="col">Deliveries</th>
                </tr>
              </thead>
              <tbody>
                ${requests.map(
                  (q, i) =>
                    html`<tr>
                      <td>${q.id}${q.isDemo ? ' (demo)' : ''}</td>
                      <td>${q.proName}</td>
                      <td>${q.category}</td>
                      <td>${q.zip ?? ''}</td>
                      <td>${iso(q.createdAt)}</td>
                      <td>
                        <ul class="plain">
                          ${deliveries[i]!.map((dl) => html`<li>${dl.channel}: <strong>${dl.status}</strong>, ${dl.attempts} attempt(s)${dl.lastError ? html` · <span class="error">${dl.lastError}</span>` : html``}</li>`)}
                        </ul>
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }`;
    res.type('html').send(page({ title: 'Lead service', current: '/console/leads', csrf, body }));
  });
  return r;
}
