import { CONSOLE_PAGES } from '../lib/api-registry.js';

/** Where the back-office console lives on the admin listener, as the registry gives it. */
export const CONSOLE_PREFIX = CONSOLE_PAGES.prefix;
