import { describe, expect, it } from 'vitest';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import { posGet } from '../request.js';
import { signedInPanelUser } from './panel-agent.js';

// The panel's two reports for real data (issue 22): the summary by brand shows the 10 largest brand
// lines and sums the rest into one line whose figures equal the API's lines it replaces; the sum of the
// brand lines and the period's total over every method are labelled apart; an empty report names the
// place and period; the plain CSV keeps its bytes and a pt-BR spreadsheet CSV sits beside it; the
// language switch comes back to the same report with its query, and only to a path of the panel.

const DAY = '?place=P1&from=2026-11-19&to=2026-11-19';

interface Answer {
  total: { count: number; amount: string };
  data: {
    payment_method: string;
    label: string;
    count: number;
    amount: string;
    share: string;
    brands: { brand: string | null; count: number; amount: string; share: string }[];
  }[];
}

/**
 * Place P1 on 2026-11-19: 13 TEF credit brands B01..B13 of 10.25, 20.25, … 130.25 and a cash sale of
 * 7.00 (total 920.25); place P2 has only cash. Returns a key that reads sales.
 */
async function seed(t: TestApp): Promise<string> {
  await t.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'Acme' });
  for (const [id, name] of [
    ['P1', 'Centro'],
    ['P2', 'Praia'],
  ])
    await t.admin('PUT', `/admin/v1/pos/accounts/acme/places/${id}`, { name, timezone: 'America/Sao_Paulo' });
  const receipt = (id: string, place: string, method: string, brand: string | null, amount: string) => ({
    id,
    place,
    occurred_at: '2026-11-19T10:00:00-03:00',
    payment_method: method,
    ...(brand === null ? {} : { brand }),
    amount,
    kind: 'sale',
  });
  await t.admin('POST', '/admin/v1/pos/accounts/acme/receipts', {
    receipts: [
      ...Array.from({ length: 13 }, (_, i) =>
        receipt(`R${i}`, 'P1', 'tef_credit', `B${String(i + 1).padStart(2, '0')}`, `${(i + 1) * 10}.25`),
      ),
      receipt('RC', 'P1', 'cash', null, '7.00'),
      receipt('RP', 'P2', 'cash', null, '12.00'),
    ],
  });
  const created = await t.admin('POST', '/admin/v1/pos/accounts/acme/keys', {
    name: 'ERP',
    permissions: ['sale-by-payment-method.view'],
  });
  return (JSON.parse(created.body) as { key: string }).key;
}

async function apiAnswer(t: TestApp, key: string): Promise<Answer> {
  const answer = await posGet(
    t,
    '/v1/api-public/sales/by-payment-method?place=P1&from=2026-11-19T00:00:00-03:00&to=2026-11-20T00:00:00-03:00',
    key,
  );
  return JSON.parse(answer.body) as Answer;
}

/** The values of one data attribute in a page, in order. */
const values = (body: string, name: string) =>
  [...body.matchAll(new RegExp(`${name}="([^"]*)"`, 'g'))].map((match) => match[1]);

describe('merchant panel: the reports for real data', () => {
  describeEachDialect('through the panel routes', (dialect) => {
    const t = useTestApp(dialect, { config: { PUBLIC_BASE_URL: 'http://panel.test' } });

    it('the brand report: the 10 largest lines, the other 3 summed, the brand sum and the period total apart', async () => {
      const key = await seed(t);
      const { get } = await signedInPanelUser(t, { account: 'acme', email: 'a@acme.test' });
      const api = await apiAnswer(t, key);
      const brands = api.data.flatMap((line) => line.brands);
      expect(brands.map((line) => line.brand)).toEqual(
        ['13', '12', '11', '10', '09', '08', '07', '06', '05', '04', '03', '02', '01'].map((n) => `B${n}`),
      );
      const page = await get(`/panel/reports/brands${DAY}`);
      expect(page.statusCode).toBe(200);
      expect(values(page.body, 'data-amount')).toEqual(brands.slice(0, 10).map((line) => line.amount));
      expect(values(page.body, 'data-share')).toEqual(brands.slice(0, 10).map((line) => line.share));
      expect(page.body).toContain('Outras bandeiras (3)');
      // The rest: B03 + B02 + B01, its share rounded from exact cents like the API's (6075 / 92025).
      expect(values(page.body, 'data-rest-count')).toEqual(['3']);
      expect(values(page.body, 'data-rest-amount')).toEqual(['60.75']);
      expect(values(page.body, 'data-rest-share')).toEqual(['6.601']);
      // Every brand line: the 10 shown + the rest; the period's total is the API's, cash included.
      expect(values(page.body, 'data-brands-count')).toEqual(['13']);
      expect(values(page.body, 'data-brands-amount')).toEqual(['913.25']);
      expect(values(page.body, 'data-brands-share')).toEqual(['99.239']);
      expect(values(page.body, 'data-total-count')).toEqual([String(api.total.count)]);
      expect(values(page.body, 'data-total-amount')).toEqual([api.total.amount]);
      expect(api.total.amount).toBe('920.25');
      expect(page.body).toContain('Soma das bandeiras (pagamentos TEF)');
      expect(page.body).toContain('Total do período, todas as formas de pagamento');
      expect(page.body).toContain('R$\u00a0913,25) cobre só os pagamentos TEF');
      // The chart: the same 10 lines and the rest.
      const chart = JSON.parse(/id="chart-data">\s*([^<]+)</.exec(page.body)![1]!) as { values: number[] };
      expect(chart.values).toEqual([...brands.slice(0, 10).map((line) => Number(line.amount)), 60.75]);

      // Every line on request, the filters kept in the form, the chart still the dozen bars.
      const all = await get(`/panel/reports/brands${DAY}&all=1`);
      expect(values(all.body, 'data-amount')).toEqual(brands.map((line) => line.amount));
      expect(values(all.body, 'data-rest-amount')).toEqual([]);
      expect(all.body).toContain('<input type="hidden" name="all" value="1" />');
      expect(all.body).toContain(
        `href="/panel/reports/brands?place=P1&amp;from=2026-11-19&amp;to=2026-11-19"`,
      );
      const allChart = JSON.parse(/id="chart-data">\s*([^<]+)</.exec(all.body)![1]!) as { values: number[] };
      expect(allChart.values).toEqual(chart.values);
    });

    it('the plain CSVs keep their bytes; the pt-BR ones have semicolons, comma decimals and the BOM', async () => {
      const key = await seed(t);
      const { get } = await signedInPanelUser(t, { account: 'acme', email: 'a@acme.test' });
      const api = await apiAnswer(t, key);
      const brands = api.data.flatMap((line) => line.brands);
      const plain = await get(`/panel/reports/brands.csv${DAY}`);
      expect(plain.rawPayload.toString('utf8')).toBe(
        '\uFEFFpayment_method,label,brand,count,amount,share,currency\r\n' +
          brands.map((b) => `tef_credit,TEF - Crédito,${b.brand},1,${b.amount},${b.share},BRL\r\n`).join(''),
      );
      const br = await get(`/panel/reports/brands-planilha.csv${DAY}`);
      expect(br.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(br.headers['content-disposition']).toBe(
        'attachment; filename="bandeiras-P1-2026-11-19-2026-11-19-planilha.csv"',
      );
      const comma = (figure: string) => figure.replace('.', ',');
      expect([...br.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(br.rawPayload.toString('utf8')).toBe(
        '\uFEFFpayment_method;label;brand;count;amount;share;currency\r\n' +
          brands
            .map((b) => `tef_credit;TEF - Crédito;${b.brand};1;${comma(b.amount)};${comma(b.share)};BRL\r\n`)
            .join(''),
      );
      const [cash, credit] = api.data;
      expect((await get(`/panel/reports/receipts.csv${DAY}`)).rawPayload.toString('utf8')).toBe(
        '\uFEFFpayment_method,label,count,amount,share,currency\r\n' +
          `cash,Dinheiro,1,7.00,${cash!.share},BRL\r\n` +
          `tef_credit,TEF - Crédito,13,913.25,${credit!.share},BRL\r\n` +
          'total,,14,920.25,100.000,BRL\r\n',
      );
      expect((await get(`/panel/reports/receipts-planilha.csv${DAY}`)).rawPayload.toString('utf8')).toBe(
        '\uFEFFpayment_method;label;count;amount;share;currency\r\n' +
          `cash;Dinheiro;1;7,00;${comma(cash!.share)};BRL\r\n` +
          `tef_credit;TEF - Crédito;13;913,25;${comma(credit!.share)};BRL\r\n` +
          'total;;14;920,25;100,000;BRL\r\n',
      );
      // A period the reports refuse gives no CSV of either kind.
      expect(
        (await get('/panel/reports/brands-planilha.csv?place=P1&from=2026-11-20&to=2026-11-19')).statusCode,
      ).toBe(422);
    });

    it('an empty report names the place and the period, in both languages; a place without brands says its total', async () => {
      await seed(t);
      const { get, post, csrf } = await signedInPanelUser(t, { account: 'acme', email: 'a@acme.test' });
      const empty = await get('/panel/reports/receipts?place=P1&from=2026-10-01&to=2026-10-02');
      expect(empty.body).toContain('Nenhuma venda em Centro entre 01/10/2026 e 02/10/2026 (inclusive).');
      const noBrands = await get('/panel/reports/brands?place=P2&from=2026-11-19&to=2026-11-19');
      expect(noBrands.body).toContain(
        'Nenhum pagamento com bandeira (TEF) em Praia entre 19/11/2026 e 19/11/2026 (inclusive). O total do período, todas as formas de pagamento, é R$\u00a012,00.',
      );
      await post('/panel/language', { _csrf: csrf(empty.body), lang: 'en', back: '/panel/keys' });
      const english = await get('/panel/reports/brands?place=P1&from=2026-10-01&to=2026-10-02');
      expect(english.body).toContain('No sales at Centro between 2026-10-01 and 2026-10-02 (included).');
    });

    it('the language switch comes back to the same report with its query; a hostile back goes to the panel’s home', async () => {
      await seed(t);
      const { get, post, csrf } = await signedInPanelUser(t, { account: 'acme', email: 'a@acme.test' });
      const url = `/panel/reports/brands?place=P2&from=2026-11-19&to=2026-11-19&all=1`;
      const page = await get(url);
      const back = /name="back" value="([^"]*)"/.exec(page.body)?.[1]?.replace(/&amp;/g, '&');
      expect(back).toBe(url);
      const switched = await post('/panel/language', { _csrf: csrf(page.body), lang: 'en', back: back! });
      expect(switched.statusCode).toBe(303);
      expect(switched.headers.location).toBe(url);
      const english = await get(switched.headers.location!);
      expect(english.body).toContain('<html lang="en">');
      expect(english.body).toMatch(/<option value="P2"\s+selected>/);
      expect(english.body).toContain('value="2026-11-19"');
      expect(english.body).toContain('<input type="hidden" name="all" value="1" />');
      // In the query, `//` and `\` are data: the path is the panel's, so the switch follows it.
      const dataInQuery = '/panel/reports/brands?note=//evil.example/%5C&x=\\y';
      expect(
        (await post('/panel/language', { _csrf: csrf(english.body), lang: 'pt-BR', back: dataInQuery }))
          .headers.location,
      ).toBe(dataInQuery);
      for (const hostile of [
        'https://evil.example/panel/reports/brands?place=P1',
        '//evil.example/panel/reports/brands?place=P1',
        '/panel//evil.example?place=P1',
        '/panel/\\evil.example?place=P1',
        '/panel/../admin?place=P1',
        '/panel/%2E%2E?place=P1',
        '/panel/reports/brands#top',
        '/panel/reports/brands?place=P1\r\nSet-Cookie: x=1',
        '/panel/reports/brands?place=Pr\u00e1ia',
        '/panelx/reports?place=P1',
        '?place=P1',
      ]) {
        const answer = await post('/panel/language', {
          _csrf: csrf(english.body),
          lang: 'en',
          back: hostile,
        });
        expect(answer.statusCode, JSON.stringify(hostile)).toBe(303);
        expect(answer.headers.location, JSON.stringify(hostile)).toBe('/panel/');
      }
    });
  });
});
