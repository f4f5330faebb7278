// How a command fails: the exit code says which kind of failure it was (0 ok, 1 refused or failed,
// 2 usage), the message says what to do.

/** Exit codes of the command line. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** A failure that ends the command with its exit code and message (printed on stderr). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
    /** What `--json` prints on stdout instead of the message; default `{error: message}`. */
    readonly json?: unknown,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** A command used wrongly (a missing setting, an unknown value): exit 2. */
export function usageError(message: string): CliError {
  return new CliError(message, EXIT.usage);
}
