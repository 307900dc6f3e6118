import { CSV_BOM, csvLine, majorUnits } from '../../shared/csv';

/** A ledger entry as the CSV exports read it. */
export interface LedgerCsvRow {
  id: number | string | bigint;
  amount_minor: number | string | bigint;
  currency: string;
  kind: string;
  reference?: string | null;
  note: string | null;
  created_at: Date;
}

/**
 * A ledger as CSV, oldest first, page by page (`page(after)` gives the entries with id > after, in
 * id order, empty at the end): the customer's Billing export and the operator's. Credits and debits
 * in major units; `reference` adds the entry's reference (the operator's view).
 */
export async function* ledgerCsvLines(
  page: (after: number) => Promise<LedgerCsvRow[]>,
  { reference = false }: { reference?: boolean } = {},
): AsyncGenerator<string> {
  yield (
    CSV_BOM +
    csvLine([
      'id',
      'date',
      'kind',
      'credit',
      'debit',
      'currency',
      ...(reference ? ['reference'] : []),
      'note',
    ])
  );
  let after = 0;
  for (;;) {
    const rows = await page(after);
    const last = rows[rows.length - 1];
    if (!last) return;
    let chunk = '';
    for (const r of rows) {
      const amount = Number(r.amount_minor);
      chunk += csvLine([
        String(r.id),
        r.created_at.toISOString(),
        r.kind,
        amount > 0 ? majorUnits(amount, r.currency) : '',
        amount < 0 ? majorUnits(-amount, r.currency) : '',
        r.currency,
        ...(reference ? [r.reference ?? ''] : []),
        r.note ?? '',
      ]);
    }
    yield chunk;
    after = Number(last.id);
  }
}
