import type { ConsoleKit } from '../../console-kit.js';
import { CATALOG_COLLECTIONS } from '../../../helpdesk/catalog-collections.js';
import { fieldsOf } from './catalog-fields.js';
import { registerCollectionsPage } from './collections.js';
import { registerDeleteCategoryPages } from './delete.js';
import { registerEditEntryPages } from './edit.js';
import { registerEntriesPage } from './entries.js';
import { registerNewEntryPages } from './new.js';

// The help-desk catalog for the operator (issue 14): the six collections of docs/admin-rules.md (Help desk),
// derived from the admin API's own table (src/helpdesk/catalog-collections.ts), each listed by id and
// written through a form checked by the admin API's schemas (the id by the PUT path's, the fields by its
// body's), so the documents' limits (names of 200 characters, descriptions of 500) hold here as there.
// Every change goes through the catalog service and into the back-office log under the admin API's
// operation id. A category is the one entry that can be deleted, after a page saying what it does.
//
// Routes (ability `catalog`, the operator's):
//   GET  /console/catalog                            the collections, with their counts
//   GET  /console/catalog/:collection                a collection's entries, by id
//   GET  /console/catalog/:collection/new            the form of a new entry
//   POST /console/catalog/:collection/new            creates it (putHelpDesk<Entry>)
//   GET  /console/catalog/:collection/:id/edit       the form of an entry
//   POST /console/catalog/:collection/:id/edit       replaces it (putHelpDesk<Entry>)
//   GET  /console/catalog/categories/:id/delete      what deleting a category does, to confirm
//   POST /console/catalog/categories/:id/delete      deletes it (deleteHelpDeskCategory)
//
// One file a page: each registers its routes, in the order of the table above.

/** Registers the catalog's pages. */
export function registerCatalogPages(kit: ConsoleKit): void {
  // Every member of every body has its form field, or the console does not start.
  for (const collection of CATALOG_COLLECTIONS) fieldsOf(collection);
  registerCollectionsPage(kit);
  registerEntriesPage(kit);
  registerNewEntryPages(kit);
  registerEditEntryPages(kit);
  registerDeleteCategoryPages(kit);
}
