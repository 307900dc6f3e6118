import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  STATEMENTS_API,
  statementPath,
  type StatementDto,
  type StatementEntryPage,
  type StatementMonthList,
} from '@wren/contracts';
import { downloadFile } from '@/lib/download';
import { http } from '@/lib/http/client';

/** Monthly statements (issue 39 item 5): the months, one month, more entries, the files. */

export const statementKeys = {
  months: ['statements', 'months'] as const,
  month: (month: string) => ['statements', 'month', month] as const,
};

export function useStatementMonths() {
  return useQuery({
    queryKey: statementKeys.months,
    queryFn: async () =>
      (await http.get<StatementMonthList>(STATEMENTS_API.months, { noOverlay: true })).data,
  });
}

export function useStatement(month: string | null) {
  return useQuery({
    queryKey: statementKeys.month(month ?? ''),
    queryFn: async () => (await http.get<StatementDto>(statementPath(month ?? ''), { noOverlay: true })).data,
    enabled: !!month,
    // The previous month stays on screen (dimmed) while the next one loads.
    placeholderData: keepPreviousData,
  });
}

export const fetchEntries = async (month: string, after: number) =>
  (
    await http.get<StatementEntryPage>(statementPath(month, 'entries'), {
      params: { after, limit: 50 },
      noOverlay: true,
    })
  ).data;

export const downloadStatement = (month: string, kind: 'csv' | 'pdf') =>
  downloadFile(statementPath(month, kind), `wren-statement-${month}.${kind}`);
