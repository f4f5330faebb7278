import { describe, expect, it } from 'vitest';
import { createLifecycle } from '../../src/lifecycle/lifecycle.js';
import { ManualClock } from '../helper.js';

// Every request is counted as work in progress twice (closing-guard.ts): its description (method and URL
// with keys redacted) is built only when the shutdown's log shows what is left, not per request.

describe('work in progress: descriptions', () => {
  it('a description passed as a function is built only when the work in progress is shown', () => {
    const clock = new ManualClock();
    const lifecycle = createLifecycle({ clock });
    let built = 0;
    const ends = Array.from({ length: 100 }, (_, i) =>
      lifecycle.begin(() => {
        built += 1;
        return `GET /jobs/${i} (request)`;
      }),
    );
    for (const end of ends.slice(1)) end();
    expect(built).toBe(0);
    clock.advance(250);
    expect(lifecycle.inProgress()).toEqual([{ what: 'GET /jobs/0 (request)', ms: 250 }]);
    expect(built).toBe(1);
  });
});
