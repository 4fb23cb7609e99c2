// A module loaded on first use and remembered. Tools reach their heavy implementation (HTML parsers, data
// sets, HTTP clients) through this, so a process that never runs a tool never pays for loading it: a
// worker's start-up is the time before it drains anything, and the HTTP front door only needs the schemas.
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load().catch((err: unknown) => {
      // Not remembered when it failed, so the next task tries again.
      loaded = undefined;
      throw err;
    });
    return loaded;
  };
}
