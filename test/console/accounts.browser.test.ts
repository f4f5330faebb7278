import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SERVICE_ACTOR } from '../../src/audit/actor.js';
import { DEMO_ACCOUNT } from '../../src/pos/demo.js';
import { keyOutcomeValue } from '../../src/pos/keys/merchant-key-problem.js';
import { describeEachDialect } from '../helper.js';
import { HAS_CHROMIUM } from '../support/browser.js';
import { startConsoleHarness, type ConsoleHarness } from './console-harness.js';

// The console's merchant pages in Chromium (issue 14, What must show): a support user revokes a
// merchant key with a reason and the key answers 401 revoked on the POS API right after, with no
// operator form in sight; the operator manages an account, a place and its events, invites a merchant
// user, and uploads a file of receipts with a progress bar that reaches 100%. Every page is pictured at
// two widths and held to axe-core.

/** A few hundred receipts of the demo's places, as NDJSON. */
function receiptsFile(count: number, prefix: string): Buffer {
  const places = ['SP01', 'MAN01', 'REC01'];
  const lines = Array.from({ length: count }, (_, index) =>
    JSON.stringify({
      id: `${prefix}${String(index).padStart(5, '0')}`,
      place: places[index % places.length],
      occurred_at: '2026-11-20T21:30:00-03:00',
      payment_method: index % 2 === 0 ? 'tef_credit' : 'pix',
      brand: index % 2 === 0 ? 'VISA' : null,
      amount: `${10 + (index % 90)}.50`,
      kind: 'sale',
    }),
  );
  return Buffer.from(`${lines.join('\n')}\n`);
}

describe.skipIf(!HAS_CHROMIUM)(
  `console merchant pages in a browser${HAS_CHROMIUM ? '' : ': skipped, /usr/bin/chromium is absent'}`,
  () => {
    describeEachDialect('support and the operator at work', (dialect) => {
      let h: ConsoleHarness;

      beforeAll(async () => {
        h = await startConsoleHarness(dialect);
      }, 240_000);
      afterAll(async () => {
        await h.close();
      });
      // One browser for both users: each test signs in afresh.
      beforeEach(async () => {
        await h.context.clearCookies();
      });

      const accounts = () => `${h.adminBase}/console/accounts`;

      it('support revokes a merchant key with a reason; it answers 401 revoked on the POS API at once', async () => {
        const created = keyOutcomeValue(
          await h.t.services.merchantKeys.create(
            DEMO_ACCOUNT,
            { name: 'Integração vazada', permissions: ['event.view'], places: 'all' },
            SERVICE_ACTOR,
          ),
        );
        const ping = () =>
          fetch(`${h.publicBase}/v1/api-public/ping`, {
            headers: { authorization: `Bearer ${created.key}` },
          });
        expect((await ping()).status).toBe(200);

        const { page, problems } = await h.newPage();
        await h.signIn(page, h.support);
        await page.goto(accounts());
        await h.look(page, 'accounts-list-support');
        expect(await page.locator('a[href$="/new-account"]').count()).toBe(0);
        await page.getByRole('link', { name: DEMO_ACCOUNT, exact: true }).click();
        await page.waitForURL(`${accounts()}/${DEMO_ACCOUNT}`);
        await h.look(page, 'accounts-account-support');
        // Support sees no place, event, user or receipt form, nor a link to one.
        for (const operatorOnly of [
          '#places-title',
          '#users-title',
          '#receipts-title',
          'a[href$="/edit"]',
          'form[method=post][action*="/accounts/"]',
        ]) {
          expect(await page.locator(operatorOnly).count(), operatorOnly).toBe(0);
        }

        await page.locator(`#keys a[href$="/keys/${created.id}"]`).click();
        await h.look(page, 'accounts-key-support');
        await page.getByRole('link', { name: 'Revogar' }).click();
        await page.waitForURL(/\/revoke$/);
        await h.look(page, 'accounts-revoke');
        const reason =
          'Chave publicada por engano num repositório público; o lojista avisou pelo chamado 4711.';
        await page.getByLabel('Motivo').fill(reason);
        await page.getByRole('button', { name: 'Revogar “Integração vazada” para sempre' }).click();
        await page.waitForURL(`${accounts()}/${DEMO_ACCOUNT}/keys/${created.id}`);

        // At once: the next call with the key is refused as revoked.
        const refused = await ping();
        expect(refused.status).toBe(401);
        expect(await refused.json()).toMatchObject({ code: 'invalid_token', reason: 'revoked' });

        await expect.poll(() => page.locator('.flash[role=status]').textContent()).toContain('revogada');
        const revoked = page.locator('#history tr[data-event="revoked"]');
        await expect.poll(() => revoked.textContent()).toContain(reason);
        expect(await revoked.textContent()).toContain(`${h.support.name} (Console)`);
        expect(await page.getByRole('link', { name: 'Revogar' }).count()).toBe(0);
        await h.look(page, 'accounts-key-revoked');

        // The refusal of that call, as support reads it (written in the background).
        const refusals = `${accounts()}/${DEMO_ACCOUNT}/refusals`;
        const requestId = refused.headers.get('x-request-id') ?? '';
        await expect
          .poll(
            async () => {
              await page.goto(refusals);
              return page.locator(`#refusals tr[data-request-id="${requestId}"]`).count();
            },
            { timeout: 10_000 },
          )
          .toBe(1);
        const row = await page.locator(`#refusals tr[data-request-id="${requestId}"]`).textContent();
        expect(row).toContain('401');
        expect(row).toContain('invalid_token');
        await h.look(page, 'accounts-refusals');
        expect(problems).toEqual([]);
        await page.close();
      }, 240_000);

      it('the operator manages an account, a place and its events, and invites a merchant user', async () => {
        const { page, problems } = await h.newPage();
        await h.signIn(page, h.operator);
        await page.goto(accounts());
        await h.look(page, 'accounts-list-operator');
        await page.getByRole('link', { name: 'Nova conta' }).click();
        await h.look(page, 'accounts-new');
        // The form is checked by the admin API's schema on the server: the field at fault is named.
        await page.getByLabel('Identificador').fill('acme bares');
        await page.getByLabel('Nome', { exact: true }).fill('ACME Bares');
        await page.getByRole('button', { name: 'Criar' }).click();
        await expect.poll(() => page.locator('#error-summary').textContent()).toContain('Identificador');
        await h.look(page, 'accounts-new-refused');
        await page.getByLabel('Identificador').fill('acme');
        await page.getByLabel('E-mail').fill('financeiro@acme.example');
        await page.getByRole('button', { name: 'Criar' }).click();
        await page.waitForURL(`${accounts()}/acme`);
        expect(await h.t.services.posData.account('acme')).toMatchObject({
          name: 'ACME Bares',
          email: 'financeiro@acme.example',
        });
        await h.look(page, 'accounts-account-new');
        await page.getByRole('link', { name: 'Editar' }).click();
        await h.look(page, 'accounts-edit');
        await page.getByLabel('Nome', { exact: true }).fill('ACME Bares e Restaurantes');
        await page.getByRole('button', { name: 'Salvar alterações' }).click();
        await page.waitForURL(`${accounts()}/acme`);

        await page.getByRole('link', { name: 'Novo estabelecimento' }).click();
        await h.look(page, 'accounts-place-new');
        await page.getByLabel('Identificador').fill('POA01');
        await page.getByLabel('Nome', { exact: true }).fill('Bar Gaúcho');
        await page.getByLabel('Fuso horário').fill('America/Sao_Paulo');
        await page.getByRole('button', { name: 'Criar' }).click();
        await page.waitForURL(`${accounts()}/acme/places/POA01`);
        await page.getByRole('link', { name: 'Novo evento' }).click();
        await h.look(page, 'accounts-event-new');
        await page.getByLabel('Identificador').fill('CHURRASCO');
        await page.getByLabel('Nome', { exact: true }).fill('Churrasco de domingo');
        await page.getByLabel('Início').fill('2026-11-22T12:00:00-03:00');
        await page.getByLabel('Fim').fill('2026-11-22T18:00:00-03:00');
        await page.getByRole('button', { name: 'Criar' }).click();
        await page.waitForURL(`${accounts()}/acme/places/POA01`);
        await h.look(page, 'accounts-place');
        await page.getByRole('link', { name: 'Editar o evento “Churrasco de domingo”' }).click();
        await h.look(page, 'accounts-event-edit');
        await page.getByRole('link', { name: 'Cancelar' }).click();
        await page.getByRole('link', { name: 'Excluir o evento “Churrasco de domingo”' }).click();
        await h.look(page, 'accounts-event-delete');
        await page.getByRole('button', { name: 'Excluir “Churrasco de domingo”' }).click();
        await page.waitForURL(`${accounts()}/acme/places/POA01`);
        expect(await h.t.services.posData.listEvents('acme', 'POA01')).toEqual([]);
        await page.getByRole('link', { name: 'Editar o estabelecimento' }).click();
        await h.look(page, 'accounts-place-edit');

        await page.goto(`${accounts()}/${DEMO_ACCOUNT}`);
        await h.look(page, 'accounts-account-operator');
        await page.getByRole('link', { name: 'Ver os usuários e convidar' }).click();
        await page.getByLabel('E-mail').fill('ana@demo.example');
        await page.getByLabel('Nome', { exact: true }).fill('Ana Lojista');
        await page.getByRole('button', { name: 'Enviar o convite' }).click();
        await page.waitForURL(`${accounts()}/${DEMO_ACCOUNT}/users`);
        await expect
          .poll(() => page.locator('tr[data-user="ana@demo.example"]').textContent())
          .toContain('Convite pendente');
        await h.look(page, 'accounts-users');
        const [user] = await h.t.services.merchantUsers.list(DEMO_ACCOUNT);
        expect(user).toMatchObject({ email: 'ana@demo.example', active: false });
        const invitation = await h.t.db
          .selectFrom('mail_outbox')
          .select('recipient')
          .where('recipient', '=', 'ana@demo.example')
          .execute();
        expect(invitation).toHaveLength(1);
        expect(problems).toEqual([]);
        await page.close();
      }, 240_000);

      it('the operator uploads a file of receipts: the bar reaches 100% and the summary counts them', async () => {
        const { page, problems } = await h.newPage();
        await h.signIn(page, h.operator);
        await page.goto(`${accounts()}/${DEMO_ACCOUNT}`);
        await page.getByRole('link', { name: 'Enviar recebimentos de um arquivo' }).click();
        await page.waitForURL(`${accounts()}/${DEMO_ACCOUNT}/receipts`);
        await h.look(page, 'accounts-receipts');

        // A bad line refuses the file, naming the line and the field; nothing is stored.
        const bad = receiptsFile(3, 'X').toString().replace('"amount":"11.50"', '"amount":11.5');
        await page.getByLabel('Arquivo de recebimentos').setInputFiles({
          name: 'ruim.ndjson',
          mimeType: 'application/x-ndjson',
          buffer: Buffer.from(bad),
        });
        await page.getByRole('button', { name: 'Enviar', exact: true }).click();
        const error = page.locator('#upload-error[role=alert]');
        await error.waitFor();
        expect(await error.textContent()).toContain('Linha 2, campo amount');
        await h.look(page, 'accounts-receipts-refused');

        const count = 300;
        await page.getByLabel('Arquivo de recebimentos').setInputFiles({
          name: 'vendas.ndjson',
          mimeType: 'application/x-ndjson',
          buffer: receiptsFile(count, 'B'),
        });
        await page.getByRole('button', { name: 'Enviar', exact: true }).click();
        const summary = page.locator('#upload-summary[role=status]');
        await summary.waitFor();
        expect(await summary.textContent()).toContain(`${count} recebimentos gravados: ${count} novos`);
        expect(
          await page
            .locator('#upload-progress')
            .evaluate((bar) => (bar as unknown as { value: number }).value),
        ).toBe(100);
        expect(await page.locator('#upload-progress-text').textContent()).toBe('100% enviado');
        await h.look(page, 'accounts-receipts-done');

        const stored = await h.t.db
          .selectFrom('pos_receipts')
          .select('id')
          .where('account_id', '=', DEMO_ACCOUNT)
          .where('id', 'like', 'B%')
          .execute();
        expect(stored).toHaveLength(count);
        const none = await h.t.db.selectFrom('pos_receipts').select('id').where('id', 'like', 'X%').execute();
        expect(none).toEqual([]);
        expect(problems).toEqual([]);
        await page.close();
      }, 240_000);
    });
  },
);
