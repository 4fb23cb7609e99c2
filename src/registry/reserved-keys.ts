// Keys that reach an object's prototype machinery when a caller's name becomes an object key:
// `o["__proto__"] = v` replaces o's prototype (and `o["__proto__"].x = v` writes Object.prototype.x for
// every object in the process); `constructor.prototype` is the same door one step further. No tool, form
// or lead-service field is called this, so they are refused wherever a caller names a key.
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'prototype', 'constructor']);

export function isReservedKey(key: string): boolean {
  return RESERVED_KEYS.has(key);
}

/**
 * The dotted path ("select.__proto__", "items.2.constructor") of the first reserved key anywhere in
 * `value` (objects and arrays, walked iteratively so a deep value cannot overflow the stack), or
 * undefined when there is none.
 */
export function reservedKeyPath(value: unknown): string | undefined {
  const stack: [unknown, string | undefined][] = [[value, undefined]];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        if (item !== null && typeof item === 'object') stack.push([item, path === undefined ? String(i) : `${path}.${i}`]);
      });
      continue;
    }
    for (const key of Object.keys(v)) {
      const at = path === undefined ? key : `${path}.${key}`;
      if (RESERVED_KEYS.has(key)) return at;
      const item = (v as Record<string, unknown>)[key];
      if (item !== null && typeof item === 'object') stack.push([item, at]);
    }
  }
  return undefined;
}
