-- Artifacts (screenshots, PDFs) for clusters without an object store: every node can serve any
-- artifact. Bodies are already-compressed PNG/JPEG/PDF bytes, so TOAST is told not to try compressing.
CREATE TABLE artifacts (
  file_id      text PRIMARY KEY,
  content_type text NOT NULL,
  bytes        integer NOT NULL,
  body         bytea NOT NULL,
  created_at   bigint NOT NULL,
  expires_at   bigint NOT NULL
);
ALTER TABLE artifacts ALTER COLUMN body SET STORAGE EXTERNAL;
CREATE INDEX artifacts_expiry ON artifacts (expires_at);
