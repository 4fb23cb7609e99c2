// Store adapters besides SQLite that the contract suite runs against. Each open() gets a schema of its
// own, dropped when the suite closes the store.
import type { TaskStore } from '../../src/store/port.js';
import { createTestSchema } from './postgres.js';

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
