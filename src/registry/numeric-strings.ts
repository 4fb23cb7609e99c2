// Some clients turn digit-only text into numbers before sending it (the MCP Inspector sends zip=10001 as
// 10001). A finite number given where a tool's input JSON Schema accepts a string and no number becomes
// its decimal string before validation, on every front door; the published schemas still say "string".
type Schema = Record<string, unknown>;

function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function resolve(schema: Schema, root: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/$defs/')) return schema;
  const target = (root.$defs as Record<string, unknown> | undefined)?.[ref.slice(8)];
  return isSchema(target) ? target : schema;
}

/** The types a schema (and its anyOf/oneOf branches) admits. */
function typesOf(schema: Schema, root: Schema): Set<string> {
  const s = resolve(schema, root);
  const out = new Set<string>();
  if (typeof s.type === 'string') out.add(s.type);
  if (Array.isArray(s.type)) for (const t of s.type) out.add(String(t));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = s[key];
    if (Array.isArray(branches)) for (const b of branches) if (isSchema(b)) for (const t of typesOf(b, root)) out.add(t);
  }
  return out;
}

function wantsStringOnly(schema: Schema, root: Schema): boolean {
  const types = typesOf(schema, root);
  return types.has('string') && !types.has('number') && !types.has('integer');
}

/** A copy of `value` with numbers turned into strings where `schema` only takes strings. */
export function numbersToStrings(schema: Schema, value: unknown, root: Schema = schema): unknown {
  const s = resolve(schema, root);
  if (typeof value === 'number') return Number.isFinite(value) && wantsStringOnly(s, root) ? String(value) : value;
  if (Array.isArray(value)) {
    const items = s.items;
    return isSchema(items) ? value.map((v) => numbersToStrings(items, v, root)) : value;
  }
  if (!isSchema(value)) return value;
  const props = isSchema(s.properties) ? s.properties : {};
  const extra = isSchema(s.additionalProperties) ? s.additionalProperties : undefined;
  // fromEntries defines own properties: a "__proto__" key stays a key (and is refused by validation)
  // instead of replacing the copy's prototype.
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      const own = Object.hasOwn(props, k) ? props[k] : undefined;
      const sub = isSchema(own) ? own : extra;
      return [k, sub ? numbersToStrings(sub, v, root) : v];
    }),
  );
}
