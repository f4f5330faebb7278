import { describe, expect, it } from 'vitest';
import { colourAllowed, stylesFor } from '../../src/cli/output.js';

// Colours only on a terminal, never with NO_COLOR (https://no-color.org) or TERM=dumb (issue 12, A CLI).

const tty = { isTTY: true } as unknown as NodeJS.WriteStream;
const pipe = { isTTY: false } as unknown as NodeJS.WriteStream;

describe('command line colours', () => {
  it('colours on a terminal only', () => {
    expect(colourAllowed(tty, {})).toBe(true);
    expect(colourAllowed(pipe, {})).toBe(false);
    expect(stylesFor(tty, {}).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(stylesFor(pipe, {}).red('x')).toBe('x');
  });
  it('NO_COLOR (any non-empty value) and TERM=dumb turn them off', () => {
    expect(colourAllowed(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colourAllowed(tty, { NO_COLOR: '' })).toBe(true);
    expect(colourAllowed(tty, { TERM: 'dumb' })).toBe(false);
  });
});
