// The console's session epoch (one row of console_state): sessions issued before it are signed out.
import type { Sql } from '../sql.js';

export async function consoleSessionEpoch(db: Sql): Promise<number> {
  const r = await db.one<{ session_epoch: number | string }>('SELECT session_epoch FROM console_state WHERE id = 1');
  return r ? Number(r.session_epoch) : 0;
}

/** Signs out every console session issued before `at` (never moves the epoch back). */
export async function endConsoleSessions(db: Sql, at: number): Promise<void> {
  await db.run(
    'INSERT INTO console_state (id, session_epoch) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET session_epoch = CASE WHEN console_state.session_epoch > excluded.session_epoch THEN console_state.session_epoch ELSE excluded.session_epoch END',
    [at],
  );
}
