import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { redactKeys } from '../../src/lib/redact-keys.js';
import { logSerializers } from '../../src/observability/logger-options.js';
import { dialects, testApp, type TestApp } from '../helper.js';
import { seedPos } from '../pos/fixtures.js';

// A key sent in a query string (which the APIs refuse: docs/pos-api.md, Authentication, "not in the
// query") never reaches the logs with the URL that carried it.

describe('redactKeys', () => {
  it('replaces anything shaped like a key of this service, and nothing else', () => {
    const pos = `gtpk_${'a'.repeat(43)}`;
    const ticket = `gtes_${'B-_9'.repeat(10)}xyz`;
    expect(redactKeys(`/v1/api-public/ping?key=${pos}&place=P1`)).toBe(
      '/v1/api-public/ping?key=[redacted key]&place=P1',
    );
    expect(redactKeys(`/x?a=${ticket}`)).toBe('/x?a=[redacted key]');
    expect(redactKeys('/v1/api-public/events?place=P1&search=arena_do_porto')).toBe(
      '/v1/api-public/events?place=P1&search=arena_do_porto',
    );
    expect(redactKeys(`/x?a=${pos}more`)).toBe(`/x?a=${pos}more`);
  });
});

describe('request logs [sqlite]', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.app.close();
    await t?.db.destroy();
  });

  it('a key in a query string is refused (422) and logged redacted, never as sent', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString('utf8'));
        callback();
      },
    });
    const logger = pino({ level: 'info', serializers: logSerializers }, stream);
    const opened = await dialects[0]!.open();
    t = testApp({ db: opened.db, logger });
    const { key } = await seedPos(t);
    const response = await t.call({
      url: `/v1/api-public/ping?api_key=${key}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.statusCode).toBe(422);
    const log = lines.join('');
    expect(log).toContain('/v1/api-public/ping?api_key=[redacted key]');
    expect(log).not.toContain(key);
  });
});
