// Where the back-office console lives on the admin listener. Kept apart so that the listener (which lets
// the console's pages through without the admin token) and the request log need nothing else of it.

export const CONSOLE_PREFIX = '/console';

/** Whether a request path is the console's. */
export function isConsolePath(path: string): boolean {
  return path === CONSOLE_PREFIX || path.startsWith(`${CONSOLE_PREFIX}/`);
}
