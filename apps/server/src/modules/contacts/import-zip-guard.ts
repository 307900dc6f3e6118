import { createInflateRaw } from 'node:zlib';
import { ErrorCode } from '@wren/contracts';
import { AppError } from '../../platform/errors';
import { notAWorkbook } from './import-file';

/**
 * Limits an XLSX workbook must keep before any XML parser sees it. The sizes are measured by
 * inflating each entry (never trusting the sizes the zip declares), and inflation stops as soon as
 * a limit is passed, so a bomb costs at most the limit, not its payload.
 */
export interface XlsxLimits {
  /** Inflated bytes of all entries together. */
  maxUncompressedBytes: number;
  /** Inflated bytes of xl/sharedStrings.xml (exceljs keeps every shared string in memory). */
  maxSharedStringsBytes: number;
  /** Inflated/compressed ratio of one entry (checked once the entry passes 1 MB). */
  maxRatio: number;
  /**
   * Longest run of XML bytes without a '<': bounds every cell text, shared string and attribute.
   * Excel's own limit is 32,767 characters a cell; escaped and UTF-8 encoded that stays under 256 KB.
   */
  maxTextRunBytes: number;
  /** Entries in the zip. */
  maxEntries: number;
  /** Time the check may take. */
  timeBudgetMs: number;
}

export const XLSX_LIMITS: XlsxLimits = {
  maxUncompressedBytes: 512 * 1024 * 1024,
  maxSharedStringsBytes: 128 * 1024 * 1024,
  maxRatio: 200,
  maxTextRunBytes: 256 * 1024,
  maxEntries: 10_000,
  timeBudgetMs: 20_000,
};

const tooBig = (what: string) =>
  new AppError(
    ErrorCode.PAYLOAD_TOO_LARGE,
    `This workbook is too large to import (${what}); save the sheet as CSV or split it`,
  );

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

/** The central directory of a zip (zip64 sizes included); throws notAWorkbook when it is broken. */
export function zipEntries(buf: Buffer, maxEntries = XLSX_LIMITS.maxEntries): Entry[] {
  const EOCD = 0x06054b50;
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw notAWorkbook();
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  if (count > maxEntries) throw tooBig(`${count} zip entries`);
  const entries: Entry[] = [];
  for (let n = 0; n < count; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) throw notAWorkbook();
    const method = buf.readUInt16LE(p + 10);
    let compressedSize = buf.readUInt32LE(p + 20);
    const uncompressed32 = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    let localOffset = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    // zip64: the fields that read 0xFFFFFFFF are in the 0x0001 extra field, in this order.
    let e = p + 46 + nameLen;
    const extraEnd = e + extraLen;
    while (e + 4 <= extraEnd) {
      const id = buf.readUInt16LE(e);
      const size = buf.readUInt16LE(e + 2);
      if (id === 0x0001) {
        let q = e + 4;
        const next = () => {
          const v = Number(buf.readBigUInt64LE(q));
          q += 8;
          return v;
        };
        if (uncompressed32 === 0xffffffff) next();
        if (compressedSize === 0xffffffff) compressedSize = next();
        if (localOffset === 0xffffffff) localOffset = next();
      }
      e += 4 + size;
    }
    entries.push({ name, method, compressedSize, localOffset });
    p = extraEnd + commentLen;
  }
  return entries;
}

function entryData(buf: Buffer, entry: Entry): Buffer {
  const at = entry.localOffset;
  if (at + 30 > buf.length || buf.readUInt32LE(at) !== 0x04034b50) throw notAWorkbook();
  const start = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28);
  const end = start + entry.compressedSize;
  if (end > buf.length) throw notAWorkbook();
  return buf.subarray(start, end);
}

/**
 * Checks an XLSX upload against `limits` before it is parsed: every entry is inflated (streamed,
 * and thrown away) while its size, ratio and longest text run are counted. Over a limit → 413;
 * a broken zip → 415. Nothing is kept, so memory stays at one inflate window.
 */
export async function checkXlsxZip(buf: Buffer, limits: XlsxLimits = XLSX_LIMITS): Promise<void> {
  const deadline = Date.now() + limits.timeBudgetMs;
  let total = 0;
  for (const entry of zipEntries(buf, limits.maxEntries)) {
    if (entry.name.endsWith('/')) continue;
    if (entry.method !== 0 && entry.method !== 8) throw notAWorkbook();
    const data = entryData(buf, entry);
    const shared = /(^|\/)sharedStrings\.xml$/i.test(entry.name);
    let size = 0;
    let run = 0;
    const measure = (chunk: Buffer) => {
      size += chunk.length;
      total += chunk.length;
      if (total > limits.maxUncompressedBytes) throw tooBig('it unpacks to too many bytes');
      if (shared && size > limits.maxSharedStringsBytes) throw tooBig('too much shared text');
      if (size > 1024 * 1024 && size > Math.max(1, data.length) * limits.maxRatio) {
        throw tooBig('it is compressed suspiciously well');
      }
      let from = 0;
      for (;;) {
        const lt = chunk.indexOf(0x3c, from);
        if (lt < 0) {
          run += chunk.length - from;
          break;
        }
        run += lt - from;
        if (run > limits.maxTextRunBytes) break;
        run = 0;
        from = lt + 1;
      }
      if (run > limits.maxTextRunBytes) throw tooBig('a cell holds too much text');
      if (Date.now() > deadline) throw tooBig('it takes too long to read');
    };
    if (entry.method === 0) {
      for (let i = 0; i < data.length; i += 64 * 1024) measure(data.subarray(i, i + 64 * 1024));
      continue;
    }
    const inflate = createInflateRaw({ chunkSize: 64 * 1024 });
    inflate.end(data);
    try {
      for await (const chunk of inflate) measure(chunk as Buffer);
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw notAWorkbook();
    } finally {
      inflate.destroy();
    }
  }
}
