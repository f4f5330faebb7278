import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { checkSalesBuckets } from '../../src/pos/sales/sales-bucket-audit.js';
import { bodyOf, expectProblem } from '../expect-http.js';
import { ADMIN_TOKEN, describeEachDialect, useTestApp } from '../helper.js';
import { asOperator, expectInvalidParam, POS } from './fixtures.js';
import {
  ACCOUNT,
  postNdjson,
  receipt,
  receiptCount,
  RECEIPTS,
  seed,
  stored,
} from './pos-data-admin-fixtures.js';

// The receipts route reads its body as it arrives, in both forms (docs/admin-rules.md, Point of sale: POST
// receipts; issue "Steady under faults and abuse", findings 3 and 4): the JSON form is streamed receipt
// by receipt with its whole-body answers unchanged, a body that is not UTF-8 is refused instead of
// stored with U+FFFD, and every other admin route reads at most 1 MiB.

const MiB = 1024 * 1024;

/** POSTs a JSON body of receipts (text, bytes or a stream) with the operator's token; any status. */
function postJson(t: ReturnType<typeof useTestApp>, payload: string | Buffer | Readable, url = RECEIPTS) {
  return t.app.admin.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    payload,
  });
}

/** `{"receipts":[` + the receipts + `]}`, produced lazily a few hundred at a time. */
function lazyBatch(total: number, item: (n: number) => string): Readable {
  return Readable.from(
    (function* () {
      yield '{"receipts":[';
      for (let start = 0; start < total; start += 200) {
        const items: string[] = [];
        for (let n = start; n < Math.min(total, start + 200); n += 1) items.push(item(n));
        yield `${start === 0 ? '' : ','}${items.join(',')}`;
      }
      yield ']}';
    })(),
  );
}

describeEachDialect('admin API, receipts upload bodies', (dialect) => {
  const t = useTestApp(dialect);

  describe('the JSON form, read as a stream (docs/admin-rules.md, Point of sale: {receipts: [...]} up to 10,000)', () => {
    it('what the whole body decides comes first and is answered as before: 400 malformed_json, then its shape (422 body.…), then the account (404), then the first bad receipt', async () => {
      await seed(t);
      const one = JSON.stringify(receipt('r1'));
      expectProblem(await postJson(t, `{"receipts":[${one}`), 400, 'malformed_json');
      expectProblem(await postJson(t, `{"receipts":[${one}]} x`), 400, 'malformed_json');
      expectProblem(await postJson(t, `\uFEFF{"receipts":[${one}]}`), 400, 'malformed_json');
      // A bad receipt before the JSON breaks: still the 400.
      expectProblem(await postJson(t, `{"receipts":[1,${one}] x`), 400, 'malformed_json');

      expect(String(expectInvalidParam(await postJson(t, '[]'), 'body').detail)).toContain('received array');
      expect(String(expectInvalidParam(await postJson(t, 'null'), 'body').detail)).toContain(
        'received undefined',
      );
      expect(String(expectInvalidParam(await postJson(t, '{}'), 'body.receipts').detail)).toContain(
        'is required',
      );
      expectInvalidParam(await postJson(t, '{"receipts":{"a":{}}}'), 'body.receipts');
      const unknown = expectInvalidParam(await postJson(t, '{"receipts":[1],"extra":1}'), 'body');
      expect(String(unknown.detail)).toContain('unknown field(s) extra');
      const tooMany = expectInvalidParam(
        await postJson(
          t,
          lazyBatch(10_001, (n) => JSON.stringify(receipt(`r${n}`))),
        ),
        'body.receipts',
      );
      expect(String(tooMany.detail)).toContain('NDJSON');
      // The shape before the account: an unknown account with too many receipts is the 422.
      expectInvalidParam(
        await postJson(
          t,
          lazyBatch(10_001, () => '1'),
          `${POS}/accounts/nobody/receipts`,
        ),
        'body.receipts',
      );
      expectProblem(
        await postJson(t, `{"receipts":[1]}`, `${POS}/accounts/nobody/receipts`),
        404,
        'not_found',
      );
      expectInvalidParam(await postJson(t, `{"receipts":[${one},{"id":"r2"}]}`), 'receipts[1].place');
      expect(await receiptCount(t)).toBe(0);
    });

    it('10,000 receipts stream through; a repeated "receipts" key counts as JSON.parse counts it (the last one), and a __proto__ field is an unknown field', async () => {
      await seed(t);
      const response = await postJson(
        t,
        lazyBatch(10_000, (n) => JSON.stringify(receipt(`r${n}`, { amount: `${n}.00` }))),
      );
      expect(bodyOf(response)).toEqual({ inserted: 10_000, updated: 0, unchanged: 0 });
      expect((await stored(t, 'r9999')).amountCents).toBe(999_900);

      const twice = `{"receipts":[${JSON.stringify(receipt('a1'))},1],"receipts":[${JSON.stringify(receipt('b1'))}]}`;
      expect(bodyOf(await postJson(t, twice))).toEqual({ inserted: 1, updated: 0, unchanged: 0 });
      expect(await receiptCount(t)).toBe(10_001);

      const proto = `{"receipts":[${JSON.stringify(receipt('c1')).replace('{', '{"__proto__":{"kind":"sale"},')}]}`;
      const refused = expectInvalidParam(await postJson(t, proto), 'receipts[0]');
      expect(String(refused.detail)).toContain('__proto__');
    });

    it('a repeated "receipts" key: only the last list is stored, and only its receipts count in the sales buckets', async () => {
      await seed(t);
      // More than a chunk of receipts (staged before the second list begins), then one.
      const first = Array.from({ length: 300 }, (_, n) => receipt(`a${n}`, { amount: '70.00' }));
      const last = [receipt('b1', { amount: '12.50' })];
      const body = `{"receipts":${JSON.stringify(first)},"receipts":${JSON.stringify(last)}}`;
      expect(bodyOf(await postJson(t, body))).toEqual({ inserted: 1, updated: 0, unchanged: 0 });
      expect(await receiptCount(t)).toBe(1);
      const buckets = await t.db
        .selectFrom('pos_sales_buckets')
        .select((eb) => [
          eb.fn.sum<string>('receipts').as('receipts'),
          eb.fn.sum<string>('amount_cents').as('cents'),
        ])
        .where('event_id', '=', '')
        .groupBy('slot_ms')
        .execute();
      expect(buckets.length).toBeGreaterThan(0);
      for (const sum of buckets) expect([Number(sum.receipts), Number(sum.cents)]).toEqual([1, 1250]);
      expect(await checkSalesBuckets(t.db)).toEqual({ differing: 0, differences: [] });
    });

    it('the receipts JSON form may be up to 50 MiB (413 payload_too_large past it, told by Content-Length or found while reading); every other admin route reads at most 1 MiB', async () => {
      await seed(t);
      // 2 MiB of receipts: above the other routes' limit.
      const padded = lazyBatch(
        500,
        (n) => JSON.stringify(receipt(`p${n}`, { brand: 'B'.repeat(200) })) + ' '.repeat(4000),
      );
      expect(bodyOf(await postJson(t, padded))).toEqual({ inserted: 500, updated: 0, unchanged: 0 });

      const declared = await t.app.admin.inject({
        method: 'POST',
        url: RECEIPTS,
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          'content-type': 'application/json',
          'content-length': String(50 * MiB + 1),
        },
        payload: '{}',
      });
      expectProblem(declared, 413, 'payload_too_large');
      const endless = Readable.from(
        (function* () {
          yield '{"receipts":[';
          for (let sent = 0; sent <= 51 * MiB; sent += MiB) yield ' '.repeat(MiB);
          yield ']}';
        })(),
      );
      expect(String(expectProblem(await postJson(t, endless), 413, 'payload_too_large').detail)).toContain(
        'NDJSON',
      );

      const name = 'N'.repeat(MiB + 1);
      expectProblem(await asOperator(t, 'PUT', ACCOUNT, { name }), 413, 'payload_too_large');
      expect(await receiptCount(t)).toBe(500);
    });
  });

  describe('receipts sent again within one upload (docs/admin-rules.md, Point of sale: the later one wins)', () => {
    it('versions of one id far apart (staged in different chunks) count as if sent one after another, and the last one is stored', async () => {
      await seed(t);
      await t.admin('POST', RECEIPTS, { receipts: [receipt('s1', { amount: '1.00' })] });
      const lines: string[] = [];
      for (let n = 0; n < 2_500; n += 1) lines.push(JSON.stringify(receipt(`n${n}`)));
      // s1: stored 1.00 → 1.00 (unchanged) → 2.00 (updated) → 1.00 (updated): written, back to 1.00.
      lines[100] = JSON.stringify(receipt('s1', { amount: '1.00' }));
      lines[1_300] = JSON.stringify(receipt('s1', { amount: '2.00' }));
      lines[2_400] = JSON.stringify(receipt('s1', { amount: '1.00' }));
      // n7: new, then the same again (unchanged), then changed (updated).
      lines[1_200] = JSON.stringify(receipt('n7'));
      lines[2_200] = JSON.stringify(receipt('n7', { status: 'cancelled' }));
      const response = await postNdjson(t, `${lines.join('\n')}\n`);
      // 2,500 lines: s1 three times (1 unchanged + 2 updated), n7 three times (1 inserted, 1 unchanged,
      // 1 updated), the 2,494 others inserted.
      expect(bodyOf(response)).toEqual({ inserted: 2_495, updated: 3, unchanged: 2 });
      expect((await stored(t, 's1')).amountCents).toBe(100);
      expect((await stored(t, 'n7')).counted).toBe(false);
      expect(await receiptCount(t)).toBe(2_496);
    });
  });

  describe('a body that is not UTF-8 is refused, nothing stored (invalid UTF-8 was stored as U+FFFD)', () => {
    const bad = (before: string, after: string) =>
      Buffer.concat([Buffer.from(before, 'utf8'), Buffer.from([0xc3, 0x28]), Buffer.from(after, 'utf8')]);

    it('JSON form: 400 malformed_json saying the body is not UTF-8', async () => {
      await seed(t);
      const [head = '', tail = ''] = JSON.stringify(receipt('u1', { brand: 'AB' })).split('AB');
      const response = await postJson(t, bad(`{"receipts":[${head}A`, `B${tail}]}`));
      expect(String(expectProblem(response, 400, 'malformed_json').detail)).toContain('UTF-8');
      expect(await receiptCount(t)).toBe(0);
    });

    it('NDJSON: 422 validation_failed naming the line (line[N], 1-based), the lines before it not stored either', async () => {
      await seed(t);
      const [head = '', tail = ''] = JSON.stringify(receipt('u3', { brand: 'AB' })).split('AB');
      const body = bad(
        `${JSON.stringify(receipt('u1'))}\n\n${head}A`,
        `B${tail}\n${JSON.stringify(receipt('u4'))}\n`,
      );
      const problem = expectInvalidParam(await postNdjson(t, Readable.from([body])), 'line[3]');
      expect(problem.line).toBe(3);
      expect(String(problem.detail)).toContain('not valid UTF-8');
      // A multi-byte character cut between two chunks of the body is still one character.
      const split = Buffer.from(`${JSON.stringify(receipt('u5', { brand: 'Olá' }))}\n`, 'utf8');
      const cut = split.indexOf(0xc3) + 1;
      const whole = await postNdjson(t, Readable.from([split.subarray(0, cut), split.subarray(cut)]));
      expect(bodyOf(whole)).toEqual({ inserted: 1, updated: 0, unchanged: 0 });
      expect((await stored(t, 'u5')).brand).toBe('Olá');
      expect(await receiptCount(t)).toBe(1);
    });

    it('NDJSON: a line longer than 65,536 characters is 422 naming its line, whole or never ended, nothing stored (docs/back-office.md)', async () => {
      await seed(t);
      const good = JSON.stringify(receipt('u1'));
      // 65,536 characters are read as a line (here: not JSON); one more is refused for its length.
      const longest = `${good}\n\n${'x'.repeat(65_536)}\n`;
      const atLimit = expectInvalidParam(await postNdjson(t, Readable.from([longest])), 'line[3]');
      expect(String(atLimit.detail)).toContain('not valid JSON');
      const whole = `${good}\n\n${'x'.repeat(65_537)}\n${good}\n`;
      const tooLong = expectInvalidParam(await postNdjson(t, Readable.from([whole])), 'line[3]');
      expect(tooLong.line).toBe(3);
      expect(String(tooLong.detail)).toContain('longer than 65536 characters');
      // A line that never ends is refused once more has arrived than such a line can hold (3 bytes a
      // character), without waiting for the rest of the body.
      const endless = new PassThrough();
      endless.write(`${good}\n`);
      for (let sent = 0; sent <= 3 * 65_536; sent += 16_384) endless.write('y'.repeat(16_384));
      try {
        expect(expectInvalidParam(await postNdjson(t, endless), 'line[2]').line).toBe(2);
      } finally {
        endless.end();
      }
      expect(await receiptCount(t)).toBe(0);
    });

    it('NDJSON: the first bad line by position is named, even when a later line of the same chunk cannot be read', async () => {
      await seed(t);
      const good = JSON.stringify(receipt('u1'));
      const noPlace = JSON.stringify(receipt('u2', { place: 'NOPE' }));
      // One chunk: a place the account does not have on line 2, bytes not UTF-8 on line 3.
      const body = bad(`${good}\n${noPlace}\n{"id":"`, `"}\n${good}\n`);
      const problem = expectInvalidParam(await postNdjson(t, Readable.from([body])), 'line[2].place');
      expect(problem.line).toBe(2);
      // Broken JSON on line 2, the same unreadable line 3: line 2 still.
      const broken = bad(`${good}\n{"id":\n{"id":"`, `"}\n`);
      expect(expectInvalidParam(await postNdjson(t, Readable.from([broken])), 'line[2]').line).toBe(2);
      expect(await receiptCount(t)).toBe(0);
    });
  });
});
