import cliProgress from 'cli-progress';

// The progress of a long command on stderr: a bar with count, rate and ETA on a terminal (cli-progress),
// a plain line per step otherwise (a log file or CI keeps readable lines, no control characters).

/** Progress of `total` items. */
export interface Progress {
  /** `done` items so far. */
  update(done: number): void;
  /** Ends the bar (its last state stays on the screen). */
  stop(): void;
}

const count = (n: number) => n.toLocaleString('en-US');

function eta(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.ceil(seconds % 60)} s`;
}

/** A progress display of `total` items named `unit`, on `stream`. */
export function createProgress(
  total: number,
  unit: string,
  options: { stream?: NodeJS.WriteStream; quiet?: boolean; now?: () => number } = {},
): Progress {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? (() => performance.now());
  if (options.quiet) return { update: () => undefined, stop: () => undefined };
  const started = now();
  const rate = (done: number) => done / Math.max((now() - started) / 1000, 0.001);

  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream,
        format: `${unit} [{bar}] {value}/{total} {percentage}% | {rate}/s | ETA {eta_formatted}`,
        formatValue: (value, _options, type) =>
          type === 'value' || type === 'total' ? count(value) : String(value),
        hideCursor: true,
        etaBuffer: 20,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { rate: '0' });
    return {
      update(done) {
        bar.update(done, { rate: count(Math.round(rate(done))) });
      },
      stop() {
        bar.stop();
      },
    };
  }
  return {
    update(done) {
      const perSecond = rate(done);
      const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
      stream.write(
        `${unit}: ${count(done)}/${count(total)} (${percent}%), ${count(Math.round(perSecond))}/s, ETA ${eta((total - done) / perSecond)}\n`,
      );
    },
    stop: () => undefined,
  };
}
