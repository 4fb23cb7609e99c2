// The task store's port, split by concern (queue-port, reads-port, keys-port, payments-port,
// batches-port, leases-port); TaskStore is all of them. Both dialects implement it with one store object
// over the database kit (src/db/tasks/) and pass the same contract suites (test/integration/store-contract.test.ts…).
import type { BatchStore } from './batches-port.js';
import type { StoreFaultReport } from './faults-port.js';
import type { KeyStore } from './keys-port.js';
import type { LeaseStore } from './leases-port.js';
import type { PaymentStore } from './payments-port.js';
import type { QueueStore } from './queue-port.js';
import type { TaskReads } from './reads-port.js';

export * from './batches-port.js';
export * from './faults-port.js';
export * from './keys-port.js';
export * from './leases-port.js';
export * from './payments-port.js';
export * from './queue-port.js';
export * from './reads-port.js';
export * from './task-row.js';

export interface TaskStore extends QueueStore, TaskReads, KeyStore, PaymentStore, BatchStore, LeaseStore {
  readonly dialect: 'sqlite' | 'postgres';
  /** Outages of the database under the store (absent on stores that cannot have any, such as test doubles). */
  readonly faults?: StoreFaultReport;
  migrate(): Promise<void>;
  close(): Promise<void>;
}
