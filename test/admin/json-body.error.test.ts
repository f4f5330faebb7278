import { expect, it } from 'vitest';
import { bodyOf, expectProblem } from '../expect-http.js';
import { ADMIN_TOKEN, describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import { asOperator, HD } from './fixtures.js';

// The admin API's JSON bodies are UTF-8 text (RFC 8259, 8.1), as the public APIs require: a body that is
// not valid UTF-8 is refused with 400 `malformed_json` saying so, and changes nothing (docs/admin-rules.md:
// bad input changes nothing). Decoded leniently, its bytes were stored as U+FFFD.

/** `{"name":"Acme <0xff 0xfe> Ltda"}`: JSON whose string holds two bytes that are not UTF-8. */
const INVALID_UTF8 = Buffer.concat([
  Buffer.from('{"name":"Acme '),
  Buffer.from([0xff, 0xfe]),
  Buffer.from(' Ltda"}'),
]);

const putCompany = (t: TestApp, payload: Buffer | string) =>
  t.app.admin.inject({
    method: 'PUT',
    url: `${HD}/companies/acme`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    payload,
  });

describeEachDialect('admin API: JSON bodies are UTF-8', (dialect) => {
  const t = useTestApp(dialect);

  it('a body that is not valid UTF-8 is 400 malformed_json naming UTF-8; nothing is stored', async () => {
    const refused = await putCompany(t, INVALID_UTF8);
    expect(String(expectProblem(refused, 400, 'malformed_json').detail)).toContain('UTF-8');
    expect(bodyOf(await asOperator(t, 'GET', `${HD}/companies`))).toEqual([]);

    // A lone surrogate's bytes (CESU-8) and an overlong encoding are not UTF-8 either.
    for (const bytes of [
      [0xed, 0xa0, 0x80],
      [0xc0, 0xaf],
    ]) {
      const payload = Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes), Buffer.from('"}')]);
      expectProblem(await putCompany(t, payload), 400, 'malformed_json');
    }
    expect(bodyOf(await asOperator(t, 'GET', `${HD}/companies`))).toEqual([]);
  });

  it('valid UTF-8 is stored exactly as sent; a BOM and broken JSON stay 400 malformed_json as before', async () => {
    const stored = await putCompany(t, Buffer.from('{"name":"Água Comércio 😀"}', 'utf8'));
    expect(stored.statusCode, stored.body).toBe(201);
    expect(bodyOf(stored).name).toBe('Água Comércio 😀');

    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name":"Bom"}')]);
    expectProblem(await putCompany(t, bom), 400, 'malformed_json');
    const broken = await putCompany(t, '{"name":');
    expect(String(expectProblem(broken, 400, 'malformed_json').detail)).toContain('not valid JSON');
    expect(bodyOf(await asOperator(t, 'GET', `${HD}/companies`))).toEqual([
      expect.objectContaining({ id: 'acme', name: 'Água Comércio 😀' }),
    ]);
  });
});
