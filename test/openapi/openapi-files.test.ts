import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { adminRoutes } from '../../src/admin/admin-routes.js';
import { problemCatalogue } from '../../src/errors/problem-catalogue.js';
import { ticketRoutes } from '../../src/helpdesk/ticket-routes.js';
import { openApiFiles } from '../../src/cli/openapi-files.js';
import type { Json } from '../../src/openapi/schema-components.js';
import { posRoutes } from '../../src/pos/api/pos-routes.js';

// The committed documents under openapi/ are what the route tables generate (so they never drift), and
// each document holds to itself: every operation of its table, every example valid for its schema.

const files = openApiFiles();
const documents = Object.fromEntries(
  Object.entries(files).map(([path, text]) => [path, JSON.parse(text) as Json]),
);

/** Every operation of a document, with its path and method. */
function operations(document: Json): { path: string; method: string; operation: Json }[] {
  return Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  );
}

describe('OpenAPI documents', () => {
  it('the committed files are what the route tables generate (npm run openapi writes them)', async () => {
    for (const [path, text] of Object.entries(files)) {
      const committed = await readFile(path, 'utf8').catch(() => '(missing)');
      expect(committed === text, `${path} differs from the route tables: run npm run openapi`).toBe(true);
    }
  });

  it('every operation of each route table is in its document, with its id, method and path', () => {
    const tables = [
      ['openapi/help-desk.json', ticketRoutes],
      ['openapi/pos.json', posRoutes],
      ['openapi/admin.json', adminRoutes],
    ] as const;
    for (const [file, routes] of tables) {
      const document = documents[file]!;
      expect(document.openapi).toBe('3.1.0');
      const found = operations(document);
      for (const route of routes) {
        const operation = found.find(
          (entry) => entry.path === route.path && entry.method === route.method.toLowerCase(),
        )?.operation;
        expect(operation?.operationId, `${route.method} ${route.path}`).toBe(route.operationId);
        expect(operation?.['x-planned'], route.operationId).toBe(route.planned === true ? true : undefined);
      }
    }
  });

  it('each refusal lists its problem codes, all of the catalogue and of that status (codes are open text)', () => {
    for (const document of Object.values(documents)) {
      for (const { operation } of operations(document)) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
          for (const code of (response['x-problem-codes'] ?? []) as (keyof typeof problemCatalogue)[]) {
            expect(problemCatalogue[code].status, `${String(operation.operationId)} ${code}`).toBe(
              Number(status),
            );
            expect(response.description).toContain(`\`${code}\``);
          }
        }
      }
    }
  });

  it('every example, of a success, a request or a refusal, is valid for its schema', () => {
    for (const [file, document] of Object.entries(documents)) {
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      ajvFormats.default(ajv);
      ajv.addSchema(document, file);
      const components = (document.components as { examples: Record<string, { value: unknown }> }).examples;
      let checked = 0;
      for (const { path, method, operation } of operations(document)) {
        const escaped = path.replaceAll('~', '~0').replaceAll('/', '~1');
        const media: [string, Json][] = [];
        const body = operation.requestBody as { content?: Record<string, Json> } | undefined;
        for (const [type, content] of Object.entries(body?.content ?? {})) {
          media.push([`/paths/${escaped}/${method}/requestBody/content/${type.replace('/', '~1')}`, content]);
        }
        for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
          for (const [type, content] of Object.entries((response.content ?? {}) as Record<string, Json>)) {
            media.push([
              `/paths/${escaped}/${method}/responses/${status}/content/${type.replace('/', '~1')}`,
              content,
            ]);
          }
        }
        for (const [pointer, content] of media) {
          const validate = ajv.compile({ $ref: `${file}#${pointer}/schema` });
          const examples = [
            ...(content.example === undefined ? [] : [content.example]),
            ...Object.values(
              (content.examples ?? {}) as Record<string, { $ref?: string; value?: unknown }>,
            ).map((example) =>
              example.$ref === undefined
                ? example.value
                : components[example.$ref.split('/').pop() ?? '']?.value,
            ),
          ];
          for (const example of examples) {
            checked += 1;
            expect(validate(example), `${file} ${pointer}: ${ajv.errorsText(validate.errors)}`).toBe(true);
          }
        }
      }
      expect(checked).toBeGreaterThan(0);
    }
  });

  it('every success with a body has an example, in each document', () => {
    for (const document of Object.values(documents)) {
      for (const { operation } of operations(document)) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
          if (response['x-problem-codes'] !== undefined) continue;
          for (const content of Object.values((response.content ?? {}) as Record<string, Json>)) {
            expect(content.example, `${String(operation.operationId)} ${status}`).toBeDefined();
          }
        }
      }
    }
  });
});
