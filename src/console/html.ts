// Server-rendered HTML for the console: an escaping template tag and the page shell (navigation, the
// CSRF token for scripts, the stylesheet and script served from /console/assets).

/** Markup that is already safe (produced by `html` or deliberately trusted). */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function render(v: unknown): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Html) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

/** Interpolated values are escaped unless they are Html (nested templates) or arrays of it. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? '';
  values.forEach((v, i) => (out += render(v) + (strings[i + 1] ?? '')));
  return new Html(out);
}

export const PAGES = [
  { path: '/console', label: 'Overview' },
  { path: '/console/keys', label: 'Keys' },
  { path: '/console/tasks', label: 'Tasks' },
  { path: '/console/leads', label: 'Lead service' },
  { path: '/console/playground', label: 'Playground' },
] as const;

export interface PageOptions {
  title: string;
  /** Which navigation entry is current. */
  current?: string;
  csrf?: string;
  body: Html;
  /** Extra head content (the chart stylesheet). */
  head?: Html;
}

export function page(o: PageOptions): string {
  const nav = o.csrf
    ? html`<nav aria-label="Console">
        <ul>
          ${PAGES.map((p) => html`<li><a href="${p.path}" ${new Html(p.path === o.current ? ' aria-current="page"' : '')}>${p.label}</a></li>`)}
        </ul>
        <form method="post" action="/console/logout" class="logout">
          <input type="hidden" name="_csrf" value="${o.csrf}" /><button type="submit">Sign out</button>
        </form>
      </nav>`
    : html``;
  return `<!doctype html>${
    html`<html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${o.title} · agent-utility console</title>
        ${o.csrf ? html`<meta name="csrf-token" content="${o.csrf}" />` : html``}
        <link rel="stylesheet" href="/console/assets/console.css" />
        <!-- An inline icon, so the browser does not ask the service for /favicon.ico (a 404 in every log). -->
        <link
          rel="icon"
          href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%231f6feb'/%3E%3C/svg%3E"
        />
        ${o.head ?? html``}
      </head>
      <body>
        <header><a class="brand" href="/console">agent-utility console</a>${nav}</header>
        <main id="main">
          <h1>${o.title}</h1>
          ${o.body}
        </main>
        <script src="/console/assets/console.js" defer></script>
      </body>
    </html>`.value
  }`;
}

export function iso(ms: number | null): string {
  return ms === null ? '' : new Date(ms).toISOString().replace('.000Z', 'Z');
}
