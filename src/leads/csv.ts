// A small RFC 4180 CSV reader: quoted fields, doubled quotes, commas and newlines inside quotes, CRLF or LF.
// Each record carries the line it started on, so import errors can point at the right place.

export interface CsvRecord {
  fields: string[];
  line: number;
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
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // byte-order mark from spreadsheet exports
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let inQuotes = false;
  let quotedLine = 0;
  let i = 0;
  const endRecord = () => {
    fields.push(field);
    // A blank line is not a record.
    if (!(fields.length === 1 && fields[0] === '')) records.push({ fields, line: recordLine });
    fields = [];
    field = '';
  };
  while (i < src.length) {
    const ch = src[i]!;
    if (inQuotes) {
      if (ch === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        inQuotes = false;
        i++;
        continue;
      }
      if (ch === '\n') line++;
      field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') {
      inQuotes = true;
      quotedLine = line;
      i++;
    } else if (ch === ',') {
      fields.push(field);
      field = '';
      i++;
    } else if (ch === '\r' || ch === '\n') {
      endRecord();
      i += ch === '\r' && src[i + 1] === '\n' ? 2 : 1;
      line++;
      recordLine = line;
    } else {
      field += ch;
      i++;
    }
  }
  if (inQuotes) throw new CsvError('a quoted field is never closed', quotedLine);
  if (field !== '' || fields.length > 0) endRecord();
  return records;
}
