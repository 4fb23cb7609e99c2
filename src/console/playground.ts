// Playground: pick a tool, fill a form generated (in console.js) from its input JSON Schema with the
// example prefilled, and run it on one of the operator's keys; the browser then waits for the task here
// and renders its result. Runs are ordinary tasks charged to the chosen key.
import { Router } from 'express';
import { z } from 'zod';
import type { Engine } from '../engine/engine.js';
import type { ArtifactLinkVerifier } from '../artifacts/verified-link.js';
import { verifiedArtifactsIn } from '../artifacts/verified-link.js';
import { toTaskView } from '../engine/task-view.js';
import type { TaskRow } from '../store/port.js';
import { InvalidInput, NotFound } from '../errors.js';
import type { ConsoleSecrets } from './session.js';
import { html, page, Html } from './html.js';
import { microsToUsd } from '../registry/registry.js';

export interface PlaygroundDeps {
  engine: Engine;
  secrets: ConsoleSecrets;
  verifyArtifact: ArtifactLinkVerifier;
}

const runBody = z.object({ tool: z.string().min(1), key_id: z.string().min(1), input: z.record(z.string(), z.unknown()) });
const waitQuery = z.object({ wait: z.coerce.number().min(0).max(25).optional() });

/** JSON inside a <script type="application/json"> element: "<" escaped so no tag can end it early. */
function scriptJson(value: unknown): Html {
  return new Html(JSON.stringify(value).replace(/</g, '\\u003c'));
}

export function playgroundPages(d: PlaygroundDeps): Router {
  const r = Router();
  const { registry, store } = d.engine;
  // The page previews only `artifacts`, the links whose signature the server verified; a file_url
  // elsewhere in the result may be a value a caller chose and is shown as text.
  const view = (task: TaskRow) => ({
    ...toTaskView(task),
    artifacts:
      task.status === 'complete' ? verifiedArtifactsIn(task.result, d.verifyArtifact).map((a) => ({ file_url: a.fileUrl, content_type: a.contentType })) : [],
  });

  r.get('/playground', async (req, res) => {
    const keys = (await store.listKeys()).filter((k) => k.revokedAt === null);
    const tools = registry.names.map((n) => {
      const t = registry.descriptor(n);
      return {
        name: t.name,
        title: t.title,
        description: t.description,
        price: t.price.rule ? `${t.price.usd} USD (${t.price.rule})` : `${t.price.usd} USD`,
        input_schema: t.input_schema,
        example: t.example,
      };
    });
    const body = html`<script type="application/json" id="tool-descriptors">
        ${scriptJson(tools)}
      </script>
      <form id="playground" class="card" novalidate>
        <div class="row">
          <label for="pg-tool">Tool</label
          ><select id="pg-tool" name="tool">
            ${tools.map((t) => html`<option value="${t.name}">${t.name} (${t.price})</option>`)}
          </select>
        </div>
        <div class="row">
          <label for="pg-key">Run on key</label>${
            keys.length
              ? html`<select id="pg-key" name="key_id">
                  ${keys.map((k) => html`<option value="${k.id}">${k.prefix}… ${k.label ?? ''} (${microsToUsd(k.balanceMicros)} USD)</option>`)}
                </select>`
              : html`<select id="pg-key" name="key_id" disabled>
                    <option value="">no active key</option>
                  </select>
                  <a href="/console/keys">Create a key first</a>`
          }
        </div>
        <p id="pg-description" class="hint"></p>
        <fieldset id="pg-fields"><legend>Input</legend></fieldset>
        <button type="submit" id="pg-run">Run</button>
      </form>
      <section aria-live="polite" id="pg-output" class="card" hidden>
        <h2>Result</h2>
        <p id="pg-status"></p>
        <div id="pg-rendered"></div>
        <details>
          <summary>JSON</summary>
          <pre id="pg-json"></pre>
        </details>
      </section>`;
    res.type('html').send(page({ title: 'Playground', current: '/console/playground', csrf: d.secrets.csrfToken(req.consoleSession!), body }));
  });

  r.post('/api/run', async (req, res) => {
    const parsed = runBody.safeParse(req.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InvalidInput(`${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'is invalid'}`, issue?.path.join('.') || 'body');
    }
    const key = await store.findKey(parsed.data.key_id);
    if (!key || key.revokedAt !== null) throw new InvalidInput('key_id: no active key with that id.', 'key_id');
    const { task } = await d.engine.submit(parsed.data.tool, parsed.data.input, { payer: { kind: 'key', id: key.id }, chargeKeyId: key.id });
    res.status(202).json(view(task));
  });

  r.get('/api/tasks/:id', async (req, res) => {
    const wait = waitQuery.safeParse(req.query);
    const task = await d.engine.waitFor(String(req.params.id), (wait.success ? (wait.data.wait ?? 0) : 0) * 1000);
    if (!task) throw new NotFound(`No task ${req.params.id}.`, 'TASK_NOT_FOUND');
    res.setHeader('Cache-Control', 'no-store');
    res.json(view(task));
  });
  return r;
}
