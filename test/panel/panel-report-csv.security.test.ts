import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import { posGet } from '../request.js';
import { signedInPanelUser } from './panel-agent.js';

// The panel's report CSVs hold OWASP's rule for CSV injection: a brand is the terminal's free text,
// passed through by the API (GET /v1/api-public/sales/by-payment-method, `data[].brands[].brand`), so a
// brand such as `+1+1` or `-cmd` must reach the spreadsheet as text, never as a formula, while every
// count, amount and share stays a number equal to the API's.

const FORMULA_START = /^[=+\-@\t\r]/;
const BRANDS = ['+1+1', '-cmd', '=HYPERLINK("http://evil.test","x")', '@SUM(1)', '-12.50', 'VISA'];

/** The account's receipts of 2026-11-19: one per brand, and a refund that makes one line negative. */
async function seedBrands(t: TestApp): Promise<string> {
  await t.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'Acme' });
  await t.admin('PUT', '/admin/v1/pos/accounts/acme/places/P1', {
    name: 'Centro',
    timezone: 'America/Sao_Paulo',
  });
  const receipt = (id: string, brand: string, amount: string, kind = 'sale') => ({
    id,
    place: 'P1',
    occurred_at: '2026-11-19T10:00:00-03:00',
    payment_method: 'tef_credit',
    brand,
    amount,
    kind,
  });
  await t.admin('POST', '/admin/v1/pos/accounts/acme/receipts', {
    receipts: [
      ...BRANDS.map((brand, i) => receipt(`R${i}`, brand, `${i + 1}0.25`)),
      receipt('RX', '-cmd', '-40.00'),
      {
        id: 'RC',
        place: 'P1',
        occurred_at: '2026-11-19T11:00:00-03:00',
        payment_method: 'cash',
        amount: '7.00',
        kind: 'sale',
      },
    ],
  });
  const created = await t.admin('POST', '/admin/v1/pos/accounts/acme/keys', {
    name: 'ERP',
    permissions: ['sale-by-payment-method.view'],
  });
  return (JSON.parse(created.body) as { key: string }).key;
}

const readBack = (body: string): string[][] => parse(body, { bom: true, relax_column_count: true });

describe('merchant panel: report CSVs and CSV injection (OWASP)', () => {
  describeEachDialect('through the panel routes', (dialect) => {
    const t = useTestApp(dialect, { config: { PUBLIC_BASE_URL: 'http://panel.test' } });
    const period = '?place=P1&from=2026-11-19&to=2026-11-19';

    it('a brand starting like a formula reaches the spreadsheet as text, after a single quote', async () => {
      await seedBrands(t);
      const { get } = await signedInPanelUser(t, { account: 'acme', email: 'a@acme.test' });
      const response = await get(`/panel/reports/brands.csv${period}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      const rows = readBack(response.body);
      const brands = rows.slice(1).map((row) => row[2]);
      expect(brands).toEqual(expect.arrayContaining(["'+1+1", "'-cmd", "'-12.50", 'VISA', 'OTHER']));
      for (const row of rows)
        for (const cell of row.filter((_, i) => i < 3 || i === 6)) {
          expect(cell).not.toMatch(FORMULA_START);
        }
      // On the wire too: no line has a cell that a spreadsheet would start a formula from.
      for (const line of response.body.replace('\uFEFF', '').split('\r\n')) {
        expect(line).not.toMatch(/(^|,)"?[=+@\t\r]/);
        expect(line).not.toMatch(/(^|,)"?-[A-Za-z]/);
      }
    });

    it('counts, amounts and shares stay numbers equal to the API, negative ones too (both reports)', async () => {
      const key = await seedBrands(t);
      const { get } = await signedInPanelUser(t, { account: 'acme', email: 'a@acme.test' });
      const api = JSON.parse(
        (
          await posGet(
            t,
            '/v1/api-public/sales/by-payment-method?place=P1&from=2026-11-19T00:00:00-03:00&to=2026-11-20T00:00:00-03:00',
            key,
          )
        ).body,
      ) as {
        total: { count: number; amount: string };
        data: {
          payment_method: string;
          count: number;
          amount: string;
          share: string;
          brands: { brand: string | null; count: number; amount: string; share: string }[];
        }[];
      };

      const brands = readBack((await get(`/panel/reports/brands.csv${period}`)).body).slice(1);
      const expected = api.data.flatMap((line) =>
        line.brands.map((b) => [String(b.count), b.amount, b.share]),
      );
      expect(brands.map((row) => row.slice(3, 6))).toEqual(expected);
      expect(brands.some((row) => row[4]!.startsWith('-'))).toBe(true);

      const receipts = readBack((await get(`/panel/reports/receipts.csv${period}`)).body).slice(1);
      expect(receipts.map((row) => row.slice(2, 5))).toEqual([
        ...api.data.map((line) => [String(line.count), line.amount, line.share]),
        [String(api.total.count), api.total.amount, '100.000'],
      ]);
    });
  });
});
