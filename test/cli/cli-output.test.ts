import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { colourAllowed, stylesFor } from '../../src/cli/output.js';
import { buildProgram } from '../../src/cli/program.js';

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

describe('command line help', () => {
  it('every command and subcommand has a description and --help', () => {
    const program = buildProgram();
    const walk = (command: Command, path: string[]): string[][] => [
      path,
      ...command.commands
        .filter((sub) => sub.name() !== 'help')
        .flatMap((sub) => walk(sub, [...path, sub.name()])),
    ];
    const paths = walk(program, []);
    expect(paths.length).toBeGreaterThan(35);
    for (const path of paths) {
      let command = program;
      for (const name of path) command = command.commands.find((sub) => sub.name() === name)!;
      expect(command.description(), path.join(' ')).not.toBe('');
      expect(command.helpInformation(), path.join(' ')).toContain('-h, --help');
    }
  });
});
