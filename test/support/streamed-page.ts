// A page whose HTML arrives in two parts (browser.server-html-scope.test.ts): the first names a stylesheet,
// and the server sends the rest only once the browser has asked for that stylesheet, or after
// STREAM_WAIT_MS. A browser parsing the page as it streams in asks for it at once; a browser whose response
// is paused until its whole body is read (server-html.ts) cannot ask before the server gives up waiting.
// The page then says which came first, so the tool's own result shows whether its page was paused.
import type http from 'node:http';

/** Longest the server waits for the stylesheet before it ends the page anyway. */
export const STREAM_WAIT_MS = 6_000;

/** What the page says when the stylesheet was asked for before the page ended: it streamed. */
export const STREAMED_TEXT = 'The reader asked for the stylesheet while this page was still arriving.';
/** What it says when the server gave up waiting: the page was held until all of it had arrived. */
export const HELD_TEXT = 'The page had arrived in full before the reader asked for its stylesheet.';

const page = (id: string) => {
  const prose = Array.from(
    { length: 12 },
    (_, i) =>
      `<p>Paragraph ${i + 1} of the streamed article: the tide came in over the flats, the boats lifted off the mud, and the harbour master wrote the hour in his book.</p>`,
  ).join('');
  // Over a kilobyte before the pause, so nothing waits for more bytes to sniff or decode.
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Streamed article</title><link rel="stylesheet" href="/streamed-probe/${id}.css"></head><body><main><article><h1>The streamed article</h1>${prose}`;
  const tail = (streamed: boolean) => `<p>${streamed ? STREAMED_TEXT : HELD_TEXT}</p>${prose}</article></main></body></html>`;
  return { head, tail };
};

/** Handles /streamed/<id> and /streamed-probe/<id>.css; false for any other path. */
export function streamedPages(): (path: string, res: http.ServerResponse) => boolean {
  const probed = new Map<string, () => void>();
  const seen = new Set<string>();
  return (path, res) => {
    const probe = /^\/streamed-probe\/([\w-]+)\.css$/.exec(path);
    if (probe) {
      const id = probe[1]!;
      seen.add(id);
      probed.get(id)?.();
      res.writeHead(200, { 'Content-Type': 'text/css' });
      res.end('article { color: #222; }');
      return true;
    }
    const streamed = /^\/streamed\/([\w-]+)$/.exec(path);
    if (!streamed) return false;
    const id = streamed[1]!;
    const { head, tail } = page(id);
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.write(head);
    let timer: NodeJS.Timeout | undefined;
    const asked = new Promise<boolean>((resolve) => {
      if (seen.has(id)) return resolve(true);
      probed.set(id, () => resolve(true));
      timer = setTimeout(() => resolve(false), STREAM_WAIT_MS);
    });
    void asked.then((streamedIn) => {
      clearTimeout(timer);
      probed.delete(id);
      res.end(tail(streamedIn));
    });
    return true;
  };
}
