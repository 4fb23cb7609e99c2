// CSV for `leads import`, read with csv-parse (MIT): RFC 4180 quoting, doubled quotes, newlines inside
// quotes, CRLF or LF, a spreadsheet's byte-order mark; blank lines are not records. A row may be shorter or
// longer than the header (the importer names missing fields per row).
import { CsvError as ParseError, parse } from 'csv-parse/sync';

export interface CsvRecord {
  fields: string[];
}

export class CsvError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
  }
}

export function parseCsv(text: string): CsvRecord[] {
  try {
    const rows = parse(text, { bom: true, record_delimiter: ['\r\n', '\n', '\r'], relax_column_count: true, skip_empty_lines: true }) as string[][];
    return rows.map((fields) => ({ fields }));
  } catch (err) {
    if (!(err instanceof ParseError)) throw err;
    const line = (err as ParseError & { lines?: number }).lines ?? 0;
    throw new CsvError(err.code === 'CSV_QUOTE_NOT_CLOSED' ? 'a quoted field is never closed' : err.message, line);
  }
}
