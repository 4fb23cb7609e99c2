// GitHub-flavoured Markdown tables: the first row is the header; pipes and line breaks inside a cell are
// escaped so a cell never breaks the table.

function cell(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\s*[\r\n]+\s*/g, '<br>')
    .trim();
}

export function gfmTable(rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return '';
  const width = Math.max(1, ...rows.map((r) => r.length));
  const line = (row: readonly string[]) => `| ${Array.from({ length: width }, (_, i) => cell(row[i] ?? '')).join(' | ')} |`;
  const [header, ...body] = rows;
  return [line(header!), `|${' --- |'.repeat(width)}`, ...body.map(line)].join('\n');
}
