// The long-running commands (serve, worker, mcp, leads serve) take callers' input for as long as they
// run. Deleting the `__proto__` accessor is what `node --disable-proto=delete` does: a caller-named
// "__proto__" key that slipped past validation then becomes an ordinary own property, never a write
// into Object.prototype that every later request would inherit. Done in-process rather than with a flag
// so that `npm start`, the bin and a plain `node dist/src/cli.js serve` are protected alike.
// Object.getPrototypeOf/setPrototypeOf and `{ __proto__: x }` literals are unaffected.

/** Commands that serve callers (and so get the guard). */
export function servesCallers(command: string, args: readonly string[]): boolean {
  return command === 'serve' || command === 'worker' || command === 'mcp' || (command === 'leads' && args[0] === 'serve');
}

/** Removes Object.prototype.__proto__ for the rest of the process. */
export function disableProtoAccessor(): void {
  Reflect.deleteProperty(Object.prototype, '__proto__');
}
