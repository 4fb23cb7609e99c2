-- Request counts every API node shares (per API key and per client address, fixed windows), in the shape
-- rate-limiter-flexible's RateLimiterPostgres reads and writes: key = "<limiter>:<key>", points counted
-- in the window that ends at expire (ms). Rows of past windows are deleted by the limiter an hour later.
-- SQLite has no such table: one process serves the API there and counts in memory.
CREATE TABLE rate_limit_windows (
  key VARCHAR(255) PRIMARY KEY,
  points INTEGER NOT NULL DEFAULT 0,
  expire BIGINT
);
