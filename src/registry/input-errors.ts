// The one wording for invalid input, on every front door (REST, MCP, A2A, the lead service): a plain
// sentence that starts with the field, e.g. "zip: must be exactly five digits", "email: is required",
// "colour: is not a known field". A message a schema author wrote (.regex(…, 'must be …')) wins; zod's
// own wording ("Invalid input: expected string, received undefined") never reaches a caller.
import type { z } from 'zod';
import { InvalidInput } from '../errors.js';
import { reservedKeyPath } from './reserved-keys.js';

type RawIssue = z.core.$ZodRawIssue;

const NOUNS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  bigint: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  record: 'an object',
  tuple: 'a list',
  null: 'null',
  date: 'a date',
};

const FORMATS: Record<string, string> = {
  email: 'an e-mail address',
  url: 'a URL',
  uuid: 'a UUID',
  datetime: 'an ISO 8601 date-time',
  date: 'an ISO 8601 date',
  time: 'an ISO 8601 time',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
};

function quoteList(values: readonly unknown[]): string {
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
}

function sizeMessage(issue: RawIssue & { code: 'too_small' | 'too_big' }): string {
  const small = issue.code === 'too_small';
  const bound = Number(small ? issue.minimum : issue.maximum);
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case 'string':
      if (small && bound === 1) return 'must not be empty';
      return `must be at ${small ? 'least' : 'most'} ${bound} characters long`;
    case 'array':
    case 'set':
      if (small && bound === 1) return 'must have at least one item';
      return `must have at ${small ? 'least' : 'most'} ${bound} items`;
    default:
      if (!inclusive) return `must be ${small ? 'greater' : 'less'} than ${bound}`;
      return `must be at ${small ? 'least' : 'most'} ${bound}`;
  }
}

/** zod error map: our plain wording for each issue zod raises (schema-level messages take precedence). */
export function plainIssueMessage(issue: RawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${NOUNS[issue.expected] ?? issue.expected}`;
    case 'too_small':
    case 'too_big':
      return sizeMessage(issue);
    case 'invalid_format':
      if (issue.format === 'regex') return 'is not in the expected format';
      return `must be ${FORMATS[issue.format] ?? `a valid ${issue.format}`}`;
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${quoteList(issue.values)}` : `must be one of ${quoteList(issue.values)}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return 'is not a known field';
    case 'invalid_union':
      return 'is not valid here';
    case 'invalid_key':
      return 'has an invalid key';
    case 'invalid_element':
      return 'has an invalid item';
    default:
      return 'is not valid';
  }
}

export interface InputProblem {
  /** Dotted path of the field at fault ("requester.email"), or undefined for the input as a whole. */
  field: string | undefined;
  sentence: string;
}

/** The first issue as one sentence naming its field. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): InputProblem {
  const issue = issues[0];
  if (!issue) return { field: undefined, sentence: 'The input is not valid.' };
  const path = issue.path.map(String);
  // An unknown key is reported at the object that holds it: name the key itself.
  if (issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined) path.push(issue.keys[0]);
  const field = path.length > 0 ? path.join('.') : undefined;
  const message = issue.code === 'unrecognized_keys' ? 'is not a known field' : issue.message;
  return { field, sentence: `${field ?? 'input'}: ${message}` };
}

export function zodToInvalidInput(error: z.ZodError | z.core.$ZodError): InvalidInput {
  const { field, sentence } = describeIssues(error.issues);
  return new InvalidInput(sentence, field);
}

/** A 400 for a caller-named key that would reach an object's prototype (`field` is its dotted path). */
export function reservedKeyError(field: string): InvalidInput {
  return new InvalidInput(`${field}: is a reserved name; __proto__, prototype and constructor cannot name a field`, field);
}

/** Throws reservedKeyError for the first __proto__, prototype or constructor key anywhere in `raw`. */
export function assertNoReservedKeys(raw: unknown): void {
  const field = reservedKeyPath(raw);
  if (field !== undefined) throw reservedKeyError(field);
}

/**
 * Parses with the plain wording; a failure is an InvalidInput (400) naming the first bad field. Reserved
 * keys are refused first, whatever the schema: a record or catch-all schema would otherwise accept them.
 */
export function parseOrInvalid<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  assertNoReservedKeys(raw);
  const parsed = schema.safeParse(raw, { error: plainIssueMessage });
  if (!parsed.success) throw zodToInvalidInput(parsed.error);
  return parsed.data;
}
