import { SERVICE_ACTOR } from '../src/audit/actor.js';
import { buildApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { Db } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { seedHelpdeskDemo } from '../src/helpdesk/demo.js';
import type { RateLimitStore } from '../src/rate-limit/rate-limit-store.js';
import { createServices } from '../src/services.js';
import { systemOutcomeValue } from '../src/helpdesk/system-refusal.js';

// The app the benchmarks time: the demo catalog, and the demo system with a limit no benchmark reaches.

/** Migrates `db`, seeds the help-desk demo, and builds the app (not listening); returns the demo key. */
export async function demoTicketApp(db: Db, rateLimits?: RateLimitStore): Promise<{ app: App; key: string }> {
  await migrateToLatest(db);
  const config = loadConfig({
    NODE_ENV: 'test',
    ADMIN_TOKEN: 'bench-admin-token-0123',
    LOG_LEVEL: 'silent',
    // The unknown-key benchmark sends thousands of wrong keys from one address.
    IP_BLOCK_THRESHOLD: '1000000',
  });
  const services = createServices({ db, ...(rateLimits === undefined ? {} : { rateLimits }), config });
  const key = await seedHelpdeskDemo(services);
  const demo = await services.systems.get('demo');
  systemOutcomeValue(
    await services.systems.put(
      'demo',
      {
        name: demo.name,
        active: true,
        scopes: ['help-desk-ticket.create'],
        rate_limit_per_minute: 1_000_000,
        key_grace_seconds: demo.keyGraceSeconds,
        default_category_id: demo.defaultCategoryId,
        released_category_ids: demo.releasedCategoryIds,
      },
      SERVICE_ACTOR,
    ),
  );
  const app = buildApp(config, { services, logger: false });
  await app.public.ready();
  return { app, key };
}
