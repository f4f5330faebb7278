import { InvalidArgumentError, type Command } from 'commander';
import { adminToken, adminUrl, createAdminClient, type AdminClient } from './admin-client.js';
import { createOutput, type Output } from './output.js';

// What every command's action gets: the output (JSON or human), and the admin API client built from the
// global options and the environment only when the command calls it.

/** The options every command takes (declared on the program). */
interface GlobalOptions {
  json?: boolean;
  adminUrl?: string;
}

/** A command's context. */
export interface Context {
  readonly out: Output;
  readonly env: NodeJS.ProcessEnv;
  /** The admin API of the deployment named by `--admin-url` (or the local default), with the env's token. */
  readonly admin: () => AdminClient;
}

/** The context of the command being run. */
function contextOf(command: Command, env: NodeJS.ProcessEnv = process.env): Context {
  const options = command.optsWithGlobals<GlobalOptions>();
  const out = createOutput({ json: options.json === true });
  let client: AdminClient | undefined;
  return {
    out,
    env,
    admin: () =>
      (client ??= createAdminClient({ url: adminUrl(options.adminUrl, env), token: adminToken(env) })),
  };
}

/**
 * Wraps an action: commander passes the positional arguments, then the command's options, then the
 * command; the handler gets the context first, then the same arguments and options.
 */
export function action(
  // `never[]`: each handler names the types of its own arguments, which commander supplies.
  handler: (context: Context, ...args: never[]) => Promise<void>,
): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const command = args.at(-1) as Command;
    await handler(contextOf(command), ...(args.slice(0, -1) as never[]));
  };
}

/** Parses a whole number option or argument (commander reports the refusal as a usage error). */
export function wholeNumber(value: string): number {
  if (!/^-?\d{1,15}$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

/** Parses a positive whole number. */
export function positiveNumber(value: string): number {
  const number = wholeNumber(value);
  if (number < 1) throw new InvalidArgumentError('must be at least 1');
  return number;
}

/** Parses a comma-separated list (`a,b`; empty text: an empty list). */
export function list(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Parses a comma-separated list of whole numbers. */
export function numberList(value: string): number[] {
  return list(value).map(wholeNumber);
}
