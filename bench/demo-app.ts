import { buildApp, type App } from '../src/app.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import type { Db } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { seedHelpdeskDemo } from '../src/helpdesk/demo.js';
import { createHelpdeskAdmin } from '../src/helpdesk/helpdesk-admin.js';
import type { RateLimitStore } from '../src/rate-limit/rate-limit-store.js';
import { createMaintenanceSwitch } from '../src/helpdesk/maintenance-switch.js';

// The app the benchmarks time: the demo catalog, and the demo system with a limit no benchmark reaches.

/** Migrates `db`, seeds the help-desk demo, and builds the app (not listening); returns the demo key. */
export async function demoTicketApp(db: Db, rateLimits?: RateLimitStore): Promise<{ app: App; key: string }> {
  await migrateToLatest(db);
  const maintenance = createMaintenanceSwitch({ db, clock: systemClock });
  const key = await seedHelpdeskDemo({ db, clock: systemClock, maintenance });
  const admin = createHelpdeskAdmin({ db, clock: systemClock, maintenance });
  const demo = await admin.system('demo');
  await admin.putSystem('demo', {
    name: demo.name,
    active: true,
    scopes: ['help-desk-ticket.create'],
    rate_limit_per_minute: 1_000_000,
    key_grace_seconds: demo.keyGraceSeconds,
    default_category_id: demo.defaultCategoryId,
    released_category_ids: demo.releasedCategoryIds,
  });
  const config = loadConfig({
    NODE_ENV: 'test',
    ADMIN_TOKEN: 'bench-admin-token-0123',
    LOG_LEVEL: 'silent',
    // The unknown-key benchmark sends thousands of wrong keys from one address.
    IP_BLOCK_THRESHOLD: '1000000',
  });
  const app = buildApp(config, { db, ...(rateLimits === undefined ? {} : { rateLimits }), logger: false });
  await app.public.ready();
  return { app, key };
}
