// Pixel dimensions read from the image bytes themselves, so the reported width and height are those of the
// file handed out, whatever the page's layout did. image-size (MIT) reads only the headers it needs.
import { imageSize as readImageSize } from 'image-size';

export interface ImageSize {
  width: number;
  height: number;
}

export function imageSize(bytes: Uint8Array): ImageSize {
  const { width, height } = readImageSize(bytes);
  if (!width || !height) throw new Error('image without dimensions');
  return { width, height };
}
