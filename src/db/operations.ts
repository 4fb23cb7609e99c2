// A store built from operation files: each operation is a function of the connection and its own
// arguments (src/db/tasks/<operation>.ts, src/leads/db/<operation>.ts), and the store is those
// functions with the connection bound.

/** `operations` as a store offers them: the connection argument bound. */
export type Bound<O> = { [K in keyof O]: O[K] extends (db: never, ...args: infer A) => infer R ? (...args: A) => R : never };

export function bindOperations<D, O extends object>(db: D, operations: O): Bound<O> {
  const entries = Object.entries(operations as Record<string, (db: D, ...args: unknown[]) => unknown>);
  // bind, not a rest-and-spread wrapper: no arguments array per call on the hot reads (getTask on every poll).
  return Object.fromEntries(entries.map(([name, op]) => [name, op.bind(undefined, db)])) as Bound<O>;
}

/** A base class whose instances carry `operations` bound to the connection they are built with. */
export function withOperations<D, O extends object>(operations: O): new (db: D) => Bound<O> {
  return class {
    constructor(db: D) {
      Object.assign(this, bindOperations(db, operations));
    }
  } as new (db: D) => Bound<O>;
}
