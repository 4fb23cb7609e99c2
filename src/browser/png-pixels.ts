// Decodes a PNG into RGBA pixels with pngjs (MIT), for checks on small captures (is a screenshot blank?).
// pngjs reads every PNG layout (any bit depth, palette, interlacing) and was measured no slower than the
// hand-written 8-bit decoder it replaced on Chromium's captures (bench/RESULTS.md, png-decoders).
import { PNG } from 'pngjs';

export interface Pixels {
  width: number;
  height: number;
  /** RGBA, row by row. */
  rgba: Uint8Array;
}

export function decodePng(png: Buffer): Pixels {
  const { width, height, data } = PNG.sync.read(png);
  return { width, height, rgba: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}
