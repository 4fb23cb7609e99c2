// What the console shows of a task's input: the values of caller `headers` and `cookies` (an
// Authorization header, a session cookie for the target site) are credentials for someone else's site, so
// the operator sees their names and lengths, never their values. Applied at any depth, since tools nest
// page options (a crawl's `render`, a batch item's fields).

/** How a hidden value is shown: its length only. */
export function maskedValue(value: unknown): string {
  return typeof value === 'string' ? `•••• (${value.length} characters)` : '••••';
}

/** A copy of `input` with header values and cookie values replaced by maskedValue(). */
export function maskSecrets(input: unknown): unknown {
  if (Array.isArray(input)) return input.map(maskSecrets);
  if (input === null || typeof input !== 'object') return input;
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(input)) {
    if (name === 'headers' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      out[name] = Object.fromEntries(Object.entries(value).map(([h, v]) => [h, maskedValue(v)]));
    } else if (name === 'cookies' && Array.isArray(value)) {
      out[name] = value.map((c: unknown) =>
        c !== null && typeof c === 'object' && 'value' in c
          ? { ...(maskSecrets(c) as object), value: maskedValue((c as { value: unknown }).value) }
          : maskSecrets(c),
      );
    } else {
      out[name] = maskSecrets(value);
    }
  }
  return out;
}
