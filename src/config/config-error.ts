// What a configuration problem says, and what it never shows: a secret's value, a URL's password.

/** One variable the service cannot start with, and what to do about it. */
export interface ConfigProblem {
  readonly variable: string;
  /** What is wrong, followed (for a variable that is not a secret) by the value received. */
  readonly message: string;
}

/**
 * Thrown when variables have values the service cannot start with. It names every one of them at once
 * (`problems`, in the order of the Configuration list), and never a secret's value: tokens and secrets
 * are not shown, URLs are shown without their password and query.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly problems: readonly ConfigProblem[];

  constructor(problems: ConfigProblem | readonly ConfigProblem[]) {
    const list: readonly ConfigProblem[] = 'variable' in problems ? [problems] : problems;
    super(list.map((problem) => `${problem.variable}: ${problem.message}`).join('; '));
    this.problems = Object.freeze([...list]);
  }
}

/** A variable whose value is a credential as a whole: never shown. */
const SECRET_NAME = /(?:TOKEN|SECRET|PASSWORD|PASSPHRASE|_KEY)$/;

/**
 * The value of `variable` as an error message may show it: nothing for a secret, a URL without its
 * password and query (`postgres://gateway:***@db/gateway`), anything else cut to 80 characters.
 */
function shownValue(variable: string, value: string): string | null {
  if (SECRET_NAME.test(variable)) return null;
  if (variable.endsWith('_URL')) {
    return value
      .replace(/^([a-z][a-z0-9+.-]*:\/\/)([^@/?#]*)@/i, maskPassword)
      .replace(/[?#].*$/s, (rest) => (rest === '' ? '' : '?…'))
      .slice(0, 80);
  }
  return value.slice(0, 80);
}

/** A URL's scheme and user information with the password replaced by `***`. */
function maskPassword(_: string, scheme: string, userinfo: string): string {
  const colon = userinfo.indexOf(':');
  return `${scheme}${colon === -1 ? userinfo : `${userinfo.slice(0, colon)}:***`}@`;
}

/**
 * A free text (a driver's error message) with the password of every URL in it replaced by `***`, as
 * `shownValue` shows a URL; a URL ends at a space.
 */
export function withoutPasswords(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)([^@/?#\s]*)@/gi, maskPassword);
}

/** `message`, followed by the value received when it may be shown. */
export function withValue(variable: string, message: string, received: string | undefined): string {
  const shown = received === undefined ? null : shownValue(variable, received);
  return shown === null ? message : `${message} (got "${shown}")`;
}
