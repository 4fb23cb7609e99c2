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

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function decodePng(png: Buffer): Pixels {
  // pngjs reports other bytes with a stream error that names nothing ("read requests waiting on finished stream").
  if (png.length < PNG_SIGNATURE.length || !png.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) {
    throw new Error('The image is not a PNG (its first bytes are not the PNG signature).');
  }
  const { width, height, data } = PNG.sync.read(png);
  return { width, height, rgba: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}
