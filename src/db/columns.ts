// Column lists that name each snake_case column after its field in the port (camelCase), so a row comes
// back in the record's shape and needs no field-by-field mapper: only the values the two drivers return
// differently (JSON, booleans; see Dialect) are decoded, and nested fields built.

/** A record as read, before the fields in K are decoded. */
export type Raw<T, K extends keyof T> = Omit<T, K> & { [F in K]: unknown };

const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** `a_b, c AS d` → `a_b AS "aB", c AS "d"`, each column read from table alias `from` when given. */
export function camelColumns(columns: string, from?: string): string {
  return columns
    .split(', ')
    .map((c) => {
      const [column, alias = camel(column!)] = c.split(' AS ');
      return `${from ? `${from}.` : ''}${column} AS "${alias}"`;
    })
    .join(', ');
}
