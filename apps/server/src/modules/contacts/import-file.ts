import { ErrorCode } from '@wren/contracts';
import { AppError } from '../../platform/errors';

export type SniffedFile = { type: 'csv'; text: string; encoding: string } | { type: 'xlsx' };

const wrongType = (detail = 'this file is neither') =>
  new AppError(ErrorCode.UNSUPPORTED_MEDIA, `Upload a CSV or TXT text file or an XLSX workbook; ${detail}`);

export const notAWorkbook = () => wrongType('this is not a valid XLSX workbook');

const startsWith = (b: Uint8Array, sig: number[]) => sig.every((x, i) => b[i] === x);

const BINARY_SIGNATURES: [number[], string][] = [
  [[0x25, 0x50, 0x44, 0x46], 'this is a PDF'],
  [[0x89, 0x50, 0x4e, 0x47], 'this is an image'],
  [[0xff, 0xd8, 0xff], 'this is an image'],
  [[0x47, 0x49, 0x46, 0x38], 'this is an image'],
  [[0x1f, 0x8b], 'this is a compressed archive'],
  [[0x7f, 0x45, 0x4c, 0x46], 'this is a program'],
  [[0x4d, 0x5a], 'this is a program'],
];

/**
 * Decides what an upload is from its content, never its name: a ZIP container (XLSX; checked
 * when read), or text (UTF-8, UTF-16 with a BOM, or Windows-1252). Anything else is a 415.
 */
export function sniffImportFile(bytes: Buffer): SniffedFile {
  if (bytes.length === 0) throw new AppError(ErrorCode.UNPROCESSABLE, 'The file is empty');
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    // Entry names are stored uncompressed; a workbook has xl/workbook.xml (a .docx or .zip has not).
    if (!bytes.includes('xl/workbook.xml')) throw notAWorkbook();
    return { type: 'xlsx' };
  }
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0])) {
    throw wrongType('old Excel (.xls) files are not supported, so save the sheet as .xlsx or .csv');
  }
  for (const [sig, what] of BINARY_SIGNATURES) if (startsWith(bytes, sig)) throw wrongType(what);

  if (startsWith(bytes, [0xff, 0xfe]))
    return text(new TextDecoder('utf-16le').decode(bytes.subarray(2)), 'utf-16le');
  if (startsWith(bytes, [0xfe, 0xff]))
    return text(new TextDecoder('utf-16be').decode(bytes.subarray(2)), 'utf-16be');
  const head = bytes.subarray(0, 64 * 1024);
  if (head.includes(0)) throw wrongType();
  try {
    return text(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes), 'utf-8');
  } catch {
    return text(new TextDecoder('windows-1252').decode(bytes), 'windows-1252');
  }
}

function text(decoded: string, encoding: string): SniffedFile {
  const sample = decoded.slice(0, 64 * 1024);
  // Text has next to no control characters besides tab and line breaks.
  let controls = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) controls += 1;
  }
  if (controls > Math.max(2, sample.length / 100)) throw wrongType();
  if (!decoded.trim()) throw new AppError(ErrorCode.UNPROCESSABLE, 'The file is empty');
  return { type: 'csv', text: decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded, encoding };
}
