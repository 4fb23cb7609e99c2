-- What a wallet's latest x402 tasks still owe (pending-payment-amounts.ts), asked on every x402 creation:
-- the payer's latest tasks in order with their payment's status and amount held in the index, so SQLite
-- reads them from it instead of parsing each row's payment JSON (about 200 rows per paid request). Partial:
-- tasks paid by key never enter it. PostgreSQL runs that query in its own server, off the API process, and
-- its jsonb needs no such parse: it has no 018.
CREATE INDEX tasks_x402_pending_amounts ON tasks (payer_id, created_at, id, (payment->>'status'), (payment->>'amount')) WHERE payer_kind = 'x402';
