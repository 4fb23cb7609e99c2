// The blank-page decision on pixels, and the PNG reader it uses, on images built here byte by byte.
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { isNearUniform } from '../../src/browser/blank-check.js';
import { decodePng } from '../../src/browser/png-pixels.js';

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** An RGB PNG whose rows use the given filter (Sub or Up exercise the reader's unfiltering). */
function rgbPng(width: number, height: number, pixel: (x: number, y: number) => [number, number, number], filter: 0 | 1 | 2 = 0): Buffer {
  const rows: Buffer[] = [];
  let prev = Buffer.alloc(width * 3);
  for (let y = 0; y < height; y++) {
    const raw = Buffer.alloc(width * 3);
    for (let x = 0; x < width; x++) raw.set(pixel(x, y), x * 3);
    const out = Buffer.alloc(width * 3);
    for (let i = 0; i < raw.length; i++) out[i] = (raw[i]! - (filter === 1 ? (i >= 3 ? raw[i - 3]! : 0) : filter === 2 ? prev[i]! : 0)) & 255;
    rows.push(Buffer.from([filter]), out);
    prev = raw;
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('decodePng', () => {
  it('reads RGB pixels through Sub and Up filters', () => {
    for (const filter of [0, 1, 2] as const) {
      const { width, height, rgba } = decodePng(rgbPng(4, 3, (x, y) => [x * 10, y * 20, 200], filter));
      expect([width, height]).toEqual([4, 3]);
      expect([...rgba.subarray((2 * 4 + 3) * 4, (2 * 4 + 3) * 4 + 4)]).toEqual([30, 40, 200, 255]);
    }
  });
  it('refuses what is not a PNG', () => {
    expect(() => decodePng(Buffer.from('GIF89a'))).toThrow(/not a PNG/);
  });
});

describe('isNearUniform', () => {
  it('calls one colour (with faint noise) blank', () => {
    expect(isNearUniform(decodePng(rgbPng(320, 200, () => [255, 255, 255])))).toBe(true);
    expect(isNearUniform(decodePng(rgbPng(320, 200, (x, y) => [250 + ((x + y) % 3), 250, 250])))).toBe(true);
  });
  it('sees a small heading on a white page as content', () => {
    // 12x4 dark pixels: a short word at a quarter scale.
    const png = rgbPng(320, 200, (x, y) => (x >= 10 && x < 22 && y >= 10 && y < 14 ? [40, 40, 40] : [255, 255, 255]));
    expect(isNearUniform(decodePng(png))).toBe(false);
  });
});
