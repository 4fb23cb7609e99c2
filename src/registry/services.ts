// Shared, lazily created services that tools need (DNS resolver, network guard, browser pool, artifact
// store, lead-service client, geo data). Each module declares its own service with defineService, so
// adding one touches no central file; a ServiceScope creates each at most once and closes them in reverse.
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';

export interface ServiceDeps {
  config: Config;
  log: Logger;
  /** Another service this one depends on. */
  use<T>(def: ServiceDef<T>): Promise<T>;
}

export interface ServiceDef<T> {
  readonly name: string;
  create(deps: ServiceDeps): T | Promise<T>;
  dispose?(instance: T): void | Promise<void>;
}

export function defineService<T>(def: ServiceDef<T>): ServiceDef<T> {
  return def;
}

export class ServiceScope {
  private readonly instances = new Map<ServiceDef<unknown>, Promise<unknown>>();
  private readonly created: { def: ServiceDef<unknown>; instance: Promise<unknown> }[] = [];
  private readonly substitutes = new Map<ServiceDef<unknown>, ServiceDef<unknown>>();
  private closed = false;

  constructor(
    readonly config: Config,
    readonly log: Logger,
  ) {}

  use<T>(def: ServiceDef<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error(`service scope is closed (wanted ${def.name})`));
    let p = this.instances.get(def as ServiceDef<unknown>) as Promise<T> | undefined;
    if (!p) {
      const made = (this.substitutes.get(def as ServiceDef<unknown>) ?? def) as ServiceDef<T>;
      p = Promise.resolve().then(() => made.create({ config: this.config, log: this.log.child({ service: def.name }), use: (d) => this.use(d) }));
      // A failed creation is not cached: the next use tries again (e.g. a browser that was missing).
      p.catch(() => this.instances.delete(def as ServiceDef<unknown>));
      this.instances.set(def as ServiceDef<unknown>, p);
      this.created.push({ def: made as ServiceDef<unknown>, instance: p });
    }
    return p;
  }

  /** The instance if something already made it (or is making it); never creates one. */
  peek<T>(def: ServiceDef<T>): Promise<T> | undefined {
    return this.instances.get(def as ServiceDef<unknown>) as Promise<T> | undefined;
  }

  /** Puts a ready instance in place (tests, or a front door that owns the service). */
  provide<T>(def: ServiceDef<T>, instance: T): void {
    const p = Promise.resolve(instance);
    this.instances.set(def as ServiceDef<unknown>, p);
  }

  /**
   * Makes `use(def)` create (and later dispose) the instance with `replacement` instead, still lazily: a
   * front door that can run a dependency itself on demand (the stdio session's lead service) says so here.
   */
  substitute<T>(def: ServiceDef<T>, replacement: ServiceDef<T>): void {
    this.substitutes.set(def as ServiceDef<unknown>, replacement as ServiceDef<unknown>);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const { def, instance } of this.created.reverse()) {
      try {
        const value = await instance;
        await def.dispose?.(value);
      } catch (err) {
        this.log.warn('service did not close cleanly', { service: def.name, err });
      }
    }
    this.instances.clear();
  }
}
