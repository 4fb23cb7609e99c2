// Store adapters besides SQLite that the contract suite runs against. Each open() gets a schema of its
// own, dropped when the suite closes the store.
import type { TaskStore } from '../../src/store/port.js';
import { createTestSchema, type TestSchema } from './postgres.js';

export const storeFactories: { name: string; open: () => Promise<TaskStore> }[] = [
  {
    name: 'postgres',
    open: async () => {
      const schema = await createTestSchema();
      const store = await schema.openStore();
      const close = store.close.bind(store);
      store.close = async () => {
        await close();
        await schema.drop();
      };
      return store;
    },
  },
];

/** Settings for a whole service on each dialect (a fresh SQLite data directory, or a schema of its own). */
export const serviceBackends: { name: string; env: () => Promise<{ env: Record<string, string>; drop?: () => Promise<void> }> }[] = [
  { name: 'sqlite', env: async () => ({ env: {} }) },
  {
    name: 'postgres',
    env: async () => {
      const schema: TestSchema = await createTestSchema();
      return { env: schema.env, drop: () => schema.drop() };
    },
  },
];
