import type { Clock } from '../clock.js';

// Where the process is in its shutdown (docs/operations.md, Running a fleet: Shutdown), and the work it must let
// finish before the stores close. Serving; then draining: /readyz answers 503 so that the balancer stops
// sending, while requests are served as usual; then closing: the listeners take no new connection and
// refuse what still arrives on kept-alive ones, while the work admitted before finishes.

/** Where the process is in its shutdown. */
export type LifecyclePhase = 'serving' | 'draining' | 'closing';

/** Work in progress, as the shutdown's log shows what was left: what it is and for how long. */
export interface WorkInProgress {
  /** `POST /v1/api-external-system/help-desk-ticket (request)`: method, URL and kind. */
  what: string;
  /** Milliseconds since it began. */
  ms: number;
}

interface Work {
  /** A description, or how to make it: built only when the shutdown shows what is left. */
  readonly what: string | (() => string);
  readonly since: number;
}

/** The process's shutdown phase and its work in progress, shared by both listeners and /readyz. */
export function createLifecycle(deps: { clock: Clock }) {
  const { clock } = deps;
  let phase: LifecyclePhase = 'serving';
  const inProgress = new Set<Work>();
  let waiting: (() => void)[] = [];

  const wakeIfIdle = () => {
    if (inProgress.size > 0) return;
    const waiters = waiting;
    waiting = [];
    for (const wake of waiters) wake();
  };

  return {
    phase: (): LifecyclePhase => phase,
    /** Serving → draining: readiness answers 503, requests are still served. */
    startDraining(): void {
      if (phase === 'serving') phase = 'draining';
    },
    /** → closing: a request not admitted yet is refused from now on. */
    startClosing(): void {
      phase = 'closing';
    },
    /**
     * Records work that has begun; the function returned ends it (the first call counts, later ones do
     * nothing). Every request passes here twice, so a description that costs something to build is
     * passed as a function, called only if the shutdown has to show it.
     */
    begin(what: string | (() => string)): () => void {
      const work: Work = { what, since: clock.now() };
      inProgress.add(work);
      return () => {
        if (inProgress.delete(work)) wakeIfIdle();
      };
    },
    /** The work in progress now, oldest first. */
    inProgress(): WorkInProgress[] {
      const now = clock.now();
      return [...inProgress].map((work) => ({
        what: typeof work.what === 'string' ? work.what : work.what(),
        ms: now - work.since,
      }));
    },
    /** Resolves once no work is in progress: at once when there is none. */
    idle(): Promise<void> {
      if (inProgress.size === 0) return Promise.resolve();
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
}

export type Lifecycle = ReturnType<typeof createLifecycle>;
