// The PostgreSQL side of the migration runner (migrate.ts): pending migrations applied under an
// advisory lock per schema, each in its own transaction.
import type pg from 'pg';
import { applyPending, upToDate, type MigrationSet } from './migration-ledger.js';
import { checkOut } from './postgres-pool.js';
import { postgresSql } from './postgres.js';
import { assertSchemaName } from './schema-name.js';

/**
 * Applies the set's pending migrations on PostgreSQL, each in its own transaction, under an advisory
 * lock per schema: concurrent starters wait for the first, which leaves them nothing to do. The lock key
 * is the one earlier releases used, so old and new processes starting together also wait for each other.
 */
export async function migratePostgres(db: { pool: pg.Pool; schema: string }, set: MigrationSet): Promise<void> {
  const schema = assertSchemaName(db.schema);
  // The pool's connections have search_path set to the schema, so this reads the schema's own ledger.
  if (await upToDate(postgresSql(db.pool), set)) return;
  const held = await checkOut(db.pool);
  const { client } = held;
  const lock = "(hashtext('agent-utility:migrate'), hashtext($1))";
  let unlockFailed = false;
  try {
    await client.query(`SELECT pg_advisory_lock${lock}`, [schema]);
    try {
      // Checked first: CREATE SCHEMA needs the CREATE privilege on the database even when the schema exists.
      if ((await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).rowCount === 0) await client.query(`CREATE SCHEMA ${schema}`);
      const atomically = async (fn: () => Promise<void>) => {
        await client.query('BEGIN');
        await fn().catch(async (err: unknown) => {
          await client.query('ROLLBACK');
          throw err;
        });
        await client.query('COMMIT');
      };
      await applyPending(postgresSql(client), set, (sql) => client.query(sql), atomically);
    } finally {
      await client.query(`SELECT pg_advisory_unlock${lock}`, [schema]).catch(() => (unlockFailed = true));
    }
  } finally {
    held.release(unlockFailed);
  }
}
