import { exitUnlessNodeSupported, nativeAddonFailure } from './runtime-check.js';

// The service's entry (`npm start` runs dist/server.js, `npm run dev` this file): first the Node version,
// before anything that loads a native addon is imported; then the service itself (src/server-main.ts),
// whose start fails in one line when better-sqlite3 was built for another Node (docs/getting-started.md,
// Node version).

exitUnlessNodeSupported('Cannot start');
try {
  await import('./server-main.js');
} catch (error) {
  const problem = nativeAddonFailure(error);
  if (problem === null) throw error;
  process.stderr.write(`Cannot start: ${problem}\n`);
  process.exit(1);
}
