-- Sessions that run their own tasks (docs/architecture.md, "Several sessions on one data directory"). Two
-- `agent-utility mcp` processes on one data directory share this queue, but a task's progress reaches only
-- the process that runs it, and its artifact link is served by that process: a session's task must run
-- in that session while it lives. `session` names the session that created a task (NULL: any worker may
-- run it, as every task written before this migration and every task of `serve`); task_sessions holds each
-- live session's lease, renewed by its heartbeat. A claim takes a session's task only for that session,
-- or once the session's lease has expired (the process died), so no task is ever stranded.
ALTER TABLE tasks ADD COLUMN session TEXT;
CREATE TABLE task_sessions (
  id         TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
);
