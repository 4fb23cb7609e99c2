// Reads one PDF per message with our reader and reports the outcome; run in a worker so the benchmark can
// end a hang (terminate) and survive a crash.
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { readPdf } from '../../dist/src/extract/document/pdf/read-pdf.js';

parentPort.on('message', async (file) => {
  try {
    const doc = await readPdf(new Uint8Array(fs.readFileSync(file)));
    parentPort.postMessage({ outcome: 'ok', chars: doc.needs_ocr ? 0 : doc.markdown.length, needsOcr: doc.needs_ocr === true });
  } catch (err) {
    parentPort.postMessage({
      outcome: err?.name === 'ToolError' && err.kind === 'input' ? 'refused' : 'error',
      error: String(err?.message ?? err).slice(0, 200),
    });
  }
});
