-- The console's session epoch: "Sign out" sets it to now, and a session cookie issued before it is no
-- longer accepted on any API node (cookies are signed, not stored, so the store keeps only this instant).
CREATE TABLE console_state (
  id INTEGER PRIMARY KEY,
  session_epoch BIGINT NOT NULL
);
