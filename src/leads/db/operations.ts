// Every LeadStore operation (the port is these, bound to a connection: store.ts): one file each in this
// folder, written once for both dialects against the connection; lead-store.ts binds them to one.

// Directory
export { directoryStats } from './directory-stats.js';
export { hasDemoPros } from './has-demo-pros.js';
export { getPro } from './get-pro.js';
export { upsertPros } from './upsert-pros.js';
export { findProsInBox } from './find-pros-in-box.js';

// Registration and keys
export { recordRegisterAttempt } from './record-register-attempt.js';
export { countRegisterAttempts } from './count-register-attempts.js';
export { createVerification } from './create-verification.js';
export { consumeVerification } from './consume-verification.js';
export { issueKey } from './issue-key.js';
export { findKeyByHash } from './find-key-by-hash.js';
export { rotateKey } from './rotate-key.js';
export { revokeKey } from './revoke-key.js';

// Quotas (per account and UTC day "YYYY-MM-DD")
export { getUsage } from './get-usage.js';
export { consumeQuota } from './consume-quota.js';
export { refundQuota } from './refund-quota.js';

// Searches
export { createSearch } from './create-search.js';
export { completeSearch } from './complete-search.js';
export { failSearch } from './fail-search.js';
export { getSearch } from './get-search.js';
export { pendingSearchIds } from './pending-search-ids.js';

// Requests and their notification outbox
export { findIdempotency } from './find-idempotency.js';
export { createRequest } from './create-request.js';
export { getRequest } from './get-request.js';
export { canAccessRequest } from './can-access-request.js';
export { listDeliveries } from './list-deliveries.js';
export { eraseRequesterDetails } from './erase-requester-details.js';
