// A leaner JSON Schema for tools/list. Every tool definition is sent to the model on every turn, so MCP
// clients pay for each character (the top complaint about large MCP servers). The registry's schemas stay
// complete for REST and OpenAPI; here we drop what carries no meaning for a model:
// - integer bounds that only restate JavaScript's safe-integer range (zod adds them to every int);
// - `anyOf: [X, {type: "null"}]` becomes `type: [X, "null"]` (same meaning, a third of the size);
// - in output schemas only: descriptions (the tool description explains the result), enums,
//   `additionalProperties: false`, `required` lists and range/length/pattern/format limits: we produce the
//   output (and check it against the full schema before a task completes), so a client need not police
//   what our code already guarantees. /v1/tools and OpenAPI keep the complete output schemas.
// - in input schemas: a pattern beside a standard format (zod's email regex), and string and list length caps (minLength 1, maxLength 2048, maxItems 50…): generous
//   limits the server enforces and names in its one-sentence error, never what a model has to choose.
// Every input property keeps its real type, enum, numeric range, default, pattern, format and description
// (the browser page options included: a client exposing one tool gets their schema, not prose elsewhere):
// the client validates structuredContent against the output schema, and the model fills the input from it.

type Schema = Record<string, unknown>;

/** Keywords whose value is a map of name → schema. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is one schema. */
const SCHEMA_VALUES = new Set([
  'items',
  'additionalProperties',
  'not',
  'propertyNames',
  'contains',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
]);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);

const SAFE = Number.MAX_SAFE_INTEGER;

/** Output keywords that restate guarantees our own code enforces; a model needs the shape and the types. */
const OUTPUT_BOUNDS = new Set([
  'enum',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
  'format',
  'propertyNames',
  'required',
]);

export function leanSchema(schema: Schema, kind: 'input' | 'output'): Schema {
  return lean(schema, kind === 'output');
}

/** Input keywords that only cap sizes; the server checks them and says which field broke one. */
const INPUT_CAPS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'maxProperties']);

function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function lean(schema: Schema, output: boolean): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if ((key === 'minimum' && value === -SAFE) || (key === 'maximum' && value === SAFE)) continue;
    if (output && key === 'description') continue;
    if (output && key === 'additionalProperties' && value === false) continue;
    // {} allows anything, which is what an absent keyword means.
    if (key === 'additionalProperties' && isSchema(value) && Object.keys(value).length === 0) continue;
    if (output && OUTPUT_BOUNDS.has(key)) continue;
    if (!output && INPUT_CAPS.has(key)) continue;
    // zod publishes its own regex beside a standard format (email): the format says it.
    if (!output && key === 'pattern' && typeof schema.format === 'string') continue;
    if (SCHEMA_MAPS.has(key) && isSchema(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSchema(v) ? lean(v, output) : v]));
    } else if (SCHEMA_VALUES.has(key) && isSchema(value)) {
      const leaned = lean(value, output);
      // Every JSON object key is a string: saying so carries nothing once its length caps are gone.
      if (key === 'propertyNames' && Object.keys(leaned).length === 1 && leaned.type === 'string') continue;
      out[key] = leaned;
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map((v: unknown) => (isSchema(v) ? lean(v, output) : v));
    } else {
      out[key] = value;
    }
  }
  return collapseNullable(out);
}

/** `{anyOf: [{type: "integer", …}, {type: "null"}]}` → `{type: ["integer", "null"], …}` for scalar types. */
function collapseNullable(schema: Schema): Schema {
  const anyOf = schema.anyOf;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return schema;
  const nullIndex = anyOf.findIndex((s: unknown) => isSchema(s) && s.type === 'null' && Object.keys(s).length === 1);
  if (nullIndex < 0) return schema;
  const other: unknown = anyOf[1 - nullIndex];
  if (!isSchema(other) || typeof other.type !== 'string' || other.type === 'object' || other.type === 'array') return schema;
  // Keywords on both sides would be ambiguous to merge; leave such schemas as they are.
  const rest = Object.fromEntries(Object.entries(schema).filter(([k]) => k !== 'anyOf'));
  if (Object.keys(other).some((k) => k in rest)) return schema;
  const merged: Schema = { ...rest, ...other, type: [other.type, 'null'] };
  if (Array.isArray(other.enum)) merged.enum = [...(other.enum as unknown[]), null];
  return merged;
}
