import { zodFormErrors } from '../../../web/form.js';
import type { ConsoleKit } from '../../console-kit.js';
import {
  fieldsOf,
  type FormValues,
  postedValues,
  listPath,
  collectionOf,
  checked,
} from './catalog-fields.js';
import { entryFormPage, write } from './entry-form.js';

// A new entry of a collection (GET, POST /console/catalog/:collection/new).

export function registerNewEntryPages(kit: ConsoleKit): void {
  const { services } = kit;
  const sendForm = entryFormPage(kit);

  kit.page<{ Params: { collection: string } }>(
    '/catalog/:collection/new',
    'catalog',
    async (request, reply, ctx) => {
      const collection = collectionOf(request.params.collection);
      // A new company or nature is active unless the operator says otherwise, as the API's default.
      const values: FormValues = { id: '', active: 'true' };
      return sendForm(request, reply, ctx, collection, { kind: 'new' }, values);
    },
  );

  kit.action<{ Params: { collection: string }; Body: Record<string, unknown> }>(
    '/catalog/:collection/new',
    'catalog',
    async (request, reply, ctx) => {
      const collection = collectionOf(request.params.collection);
      const values = postedValues(fieldsOf(collection), request.body);
      const mode = { kind: 'new' } as const;
      const id = collection.id.safeParse({ id: values.id });
      const body = checked(collection, values);
      // Every field's error at once: the id's and the body's.
      if (!id.success || !body.ok) {
        const errors = { ...(id.success ? {} : zodFormErrors(id.error)), ...(body.ok ? {} : body.errors) };
        return sendForm(request, reply, ctx, collection, mode, values, errors, 422);
      }
      // The API's PUT replaces an entry; the form of a new one must not replace one by mistake.
      if (await services.catalog.exists(collection.table, id.data.id)) {
        const errors = { id: ctx.t('catIdTaken', { id: values.id ?? '' }) };
        return sendForm(request, reply, ctx, collection, mode, values, errors, 409);
      }
      const refused = await write(kit, request, ctx, collection, id.data.id, body.body);
      if (refused !== null) return sendForm(request, reply, ctx, collection, mode, values, refused, 422);
      return kit.redirect(reply, listPath(collection));
    },
  );
}
