import type { ConsoleKit } from '../../console-kit.js';
import {
  fieldsOf,
  valuesOf,
  postedValues,
  listPath,
  collectionOf,
  entryOf,
  checked,
} from './catalog-fields.js';
import { entryFormPage, write } from './entry-form.js';

// An entry of a collection, replaced as a whole (GET, POST /console/catalog/:collection/:id/edit).

export function registerEditEntryPages(kit: ConsoleKit): void {
  const sendForm = entryFormPage(kit);

  kit.page<{ Params: { collection: string; id: string } }>(
    '/catalog/:collection/:id/edit',
    'catalog',
    async (request, reply, ctx) => {
      const collection = collectionOf(request.params.collection);
      const { key, entry } = await entryOf(kit, collection, request.params.id);
      const values = valuesOf(fieldsOf(collection), entry);
      return sendForm(request, reply, ctx, collection, { kind: 'edit', id: String(key) }, values);
    },
  );

  kit.action<{ Params: { collection: string; id: string }; Body: Record<string, unknown> }>(
    '/catalog/:collection/:id/edit',
    'catalog',
    async (request, reply, ctx) => {
      const collection = collectionOf(request.params.collection);
      const { key } = await entryOf(kit, collection, request.params.id);
      const values = postedValues(fieldsOf(collection), request.body);
      const mode = { kind: 'edit', id: String(key) } as const;
      const body = checked(collection, values);
      const errors = body.ok ? await write(kit, request, ctx, collection, key, body.body) : body.errors;
      if (errors !== null) return sendForm(request, reply, ctx, collection, mode, values, errors, 422);
      return kit.redirect(reply, listPath(collection));
    },
  );
}
