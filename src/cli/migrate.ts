import { existsSync } from 'node:fs';
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';

// `npm run db:migrate`: applies pending migrations to the database of DATABASE_URL and exits.

if (existsSync('.env')) process.loadEnvFile('.env');
try {
  const config = loadConfig(process.env);
  const db = openDatabase(config.database);
  try {
    const applied = await migrateToLatest(db);
    process.stdout.write(
      applied.length === 0 ? 'Database is up to date.\n' : `Applied: ${applied.join(', ')}\n`,
    );
  } finally {
    await db.destroy();
  }
} catch (error) {
  process.stderr.write(
    `${error instanceof ConfigError ? 'Invalid configuration: ' : ''}${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
