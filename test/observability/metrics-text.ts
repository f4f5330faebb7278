import type { TestApp } from '../helper.js';
import { ADMIN_TOKEN } from '../helper.js';

// Reading the Prometheus text of GET /metrics in the tests: the sum of a family's samples whose labels
// include the ones asked for.

/** The Prometheus text the operator's scraper reads. */
export async function scrape(t: Pick<TestApp, 'app'>): Promise<string> {
  const response = await t.app.admin.inject({
    url: '/metrics',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  if (response.statusCode !== 200) throw new Error(`/metrics answered ${response.statusCode}`);
  return response.body;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;

/** The sum of the samples named `name` whose labels include `labels`; 0 when there is none. */
export function sampleSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = SAMPLE.exec(line);
    if (match?.[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) sum += Number(match[3]);
  }
  return sum;
}
