import { PICTURE_TYPES } from '@wren/contracts';

type PictureType = (typeof PICTURE_TYPES)[number];

const startsWith = (b: Uint8Array, sig: number[], offset = 0) => sig.every((v, i) => b[offset + i] === v);

/**
 * Detects the image type from its first bytes. The client's declared type and file name are never
 * trusted: only PNG, JPEG, WebP and GIF signatures are accepted.
 */
export function sniffImageType(b: Uint8Array): PictureType | null {
  // A PNG starts with its signature and then the IHDR chunk: the signature alone (then zeros) is
  // not a picture.
  if (
    startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) &&
    startsWith(b, [0x49, 0x48, 0x44, 0x52], 12)
  ) {
    return 'image/png';
  }
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(b, [0x47, 0x49, 0x46, 0x38]) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61)
    return 'image/gif';
  // RIFF....WEBP and then a VP8, VP8L or VP8X chunk.
  if (
    startsWith(b, [0x52, 0x49, 0x46, 0x46]) &&
    startsWith(b, [0x57, 0x45, 0x42, 0x50], 8) &&
    startsWith(b, [0x56, 0x50, 0x38], 12)
  ) {
    return 'image/webp';
  }
  return null;
}
