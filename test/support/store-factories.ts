// Store adapters besides SQLite that the contract suite runs against (PostgreSQL joins here).
import type { TaskStore } from '../../src/store/port.js';

export const storeFactories: { name: string; open: () => Promise<TaskStore> }[] = [];
