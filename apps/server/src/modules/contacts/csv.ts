// The CSV helpers are shared with the SMS log export (apps/server/src/shared/csv.ts).
export { attachment, CSV_BOM, csvDownloadHeaders, csvLine, guardCell, unguardCell } from '../../shared/csv';
