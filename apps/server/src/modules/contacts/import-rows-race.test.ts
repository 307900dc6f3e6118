import ExcelJS from 'exceljs';
import { describe, expect, it, vi } from 'vitest';
import { xlsxRows } from './import-rows';

/**
 * exceljs's streaming reader sometimes parses a deferred worksheet before the workbook part and
 * throws (exceljs issue 3064; 5 of 2,000 reads on a busy machine). The first reads here lose that
 * race the way exceljs does; the rows must still come, once each.
 */
const race = vi.hoisted(() => ({ failures: 0, reads: 0 }));
vi.mock('exceljs', async (importOriginal) => {
  const real = (await importOriginal<{ default: typeof ExcelJS }>()).default;
  class RacingReader extends real.stream.xlsx.WorkbookReader {
    override async *[Symbol.asyncIterator]() {
      race.reads += 1;
      if (race.failures > 0) {
        race.failures -= 1;
        const model = undefined as unknown as { sheets: unknown };
        void model.sheets; // TypeError: Cannot read properties of undefined (reading 'sheets')
      }
      yield* super[Symbol.asyncIterator]();
    }
  }
  return {
    default: {
      ...real,
      stream: { ...real.stream, xlsx: { ...real.stream.xlsx, WorkbookReader: RacingReader } },
    },
  };
});

async function workbook() {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Contacts');
  ws.addRow(['Phone', 'Name']);
  ws.addRow(['+447911000021', 'Ann']);
  ws.addRow(['+447911000022', 'Bob']);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

const read = async (bytes: Uint8Array) => {
  const rows: string[][] = [];
  for await (const r of xlsxRows(bytes)) rows.push(r.cells);
  return rows;
};

describe('xlsxRows and the exceljs reader race', () => {
  it('reads again when the reader loses the race before any row: every row once', async () => {
    const bytes = await workbook();
    race.failures = 2;
    race.reads = 0;
    expect(await read(bytes)).toEqual([
      ['Phone', 'Name'],
      ['+447911000021', 'Ann'],
      ['+447911000022', 'Bob'],
    ]);
    expect(race.reads).toBe(3);
  });

  it('gives up after three reads: the error comes out (the upload is then refused)', async () => {
    const bytes = await workbook();
    race.failures = 3;
    race.reads = 0;
    await expect(read(bytes)).rejects.toThrow("reading 'sheets'");
    expect(race.reads).toBe(3);
  });
});
