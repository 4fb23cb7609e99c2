-- Lead notifications move onto the service's one outbox (task migration 013: webhook_outbox, in the same
-- schema). Every row moves, delivered and failed ones too (a request's view lists them); a row claimed
-- when the old process stopped ('sending') is pending again once its lease lapses, exactly as the old
-- dispatcher would have taken it over. Its attempts are those already made: the new dispatcher counts the
-- next one when it claims it. The emptied table stays: a process of the previous release still running
-- during a rolling upgrade writes and sends its own rows there, and sends none of these twice.
-- (Numbered 003 like SQLite's; PostgreSQL never needed 002.)
INSERT INTO webhook_outbox (id, key_id, url, subject_kind, subject_id, event, status, attempts, next_attempt_at, lease_owner, lease_until,
                            last_error, delivered_at, created_at, channel, payload, signing_secret, max_attempts)
SELECT d.id, 'leads:' || COALESCE((SELECT r.account_id FROM requests r WHERE r.id = d.request_id), ''), d.target->>'address',
       'lead_request', d.request_id, 'created', CASE d.status WHEN 'sending' THEN 'pending' ELSE d.status END, d.attempts, d.next_attempt_at, NULL,
       CASE d.status WHEN 'sending' THEN d.lease_until END, d.last_error, d.delivered_at, d.created_at, d.channel, d.payload::text,
       d.target->>'secret', d.max_attempts
FROM deliveries d
ON CONFLICT (id) DO NOTHING;
DELETE FROM deliveries;
