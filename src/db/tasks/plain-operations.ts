// The task store's operations that need nothing but the connection, one file each (task-store.ts binds them
// to it); the others (creating, settling, cancelling) also wake other processes, so the store wraps them.

// The queue
export { getTask } from './get-task.js';
export { renewLeases } from './renew-leases.js';
export { deleteFinishedBefore } from './delete-finished-before.js';

// Reads
export { listTasks } from './list-tasks.js';
export { usage } from './usage.js';
export { stats } from './stats.js';
export { activeByTool, queueCounts } from './queue-counts.js';

// Batches
export { getBatch } from './get-batch.js';
export { batchCounts } from './batch-counts.js';
export { listBatchItems } from './list-batch-items.js';
export { listBatchItemRefs } from './list-batch-item-refs.js';
export { getTaskResult } from './get-task-result.js';

// Keys
export { createKey } from './create-key.js';
export { findKeyByHash } from './find-key-by-hash.js';
export { findKey } from './find-key.js';
export { listKeys } from './list-keys.js';
export { creditKey } from './credit-key.js';
export { revokeKey } from './revoke-key.js';

// Payments
export { setPayment, updatePendingPayment } from './set-payment.js';
export { listUnsettledPayments } from './list-unsettled-payments.js';
export { pendingPaymentAmounts } from './pending-payment-amounts.js';
export { useSignInNonce } from './use-sign-in-nonce.js';
export { consoleSessionEpoch, endConsoleSessions } from './console-sessions.js';
export { reserveKeyPurchase } from './reserve-key-purchase.js';
export { settleKeyPurchase } from './settle-key-purchase.js';
export { markKeyPurchaseUnpaid } from './mark-key-purchase-unpaid.js';
export { noteKeyPurchasePayment } from './note-key-purchase-payment.js';
export { listKeyPurchases } from './list-key-purchases.js';

// Leader leases
export { holdLease, releaseLease } from './leader-leases.js';
