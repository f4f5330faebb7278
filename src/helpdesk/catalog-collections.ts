import type { z } from 'zod';
import {
  categoryInput,
  categoryTypeInput,
  companyInput,
  integerIdPath,
  natureInput,
  priorityInput,
  supportLevelInput,
  textIdPath,
} from './catalog-input.js';
import type { CatalogTable } from './catalog-service.js';

// The six collections of the help-desk catalog (docs/admin-rules.md, Help desk) as one table: the admin API's
// routes and the console's pages are both derived from it, so a collection's path, id shape and body
// schema are written once.

/** A catalog collection: its path, table, names, the shape of its id and the schema of its body. */
export interface CatalogCollection {
  /** The path segment under `/admin/v1/helpdesk/` and `/console/catalog/` (`category-types`). */
  path: string;
  table: CatalogTable;
  /** The entry's name in operation ids: `Company` → `putHelpDeskCompany`. */
  one: string;
  /** The collection's name in operation ids: `Companies` → `listHelpDeskCompanies`. */
  many: string;
  /** The member that holds an entry's id as listed: `identifier` for natures, `id` for the others. */
  key: 'id' | 'identifier';
  /** The id as the PUT path takes it: text for companies and natures, a positive integer otherwise. */
  id: typeof integerIdPath | typeof textIdPath;
  /** The body of PUT; its members are the entry's fields. */
  input: z.ZodObject<z.ZodRawShape, z.core.$strict>;
}

/** The collections, in the order of the admin API's paths (categories name a type and a priority). */
export const CATALOG_COLLECTIONS: readonly CatalogCollection[] = [
  {
    path: 'companies',
    table: 'hd_companies',
    one: 'Company',
    many: 'Companies',
    key: 'id',
    id: textIdPath,
    input: companyInput,
  },
  {
    path: 'category-types',
    table: 'hd_category_types',
    one: 'CategoryType',
    many: 'CategoryTypes',
    key: 'id',
    id: integerIdPath,
    input: categoryTypeInput,
  },
  {
    path: 'priorities',
    table: 'hd_priorities',
    one: 'Priority',
    many: 'Priorities',
    key: 'id',
    id: integerIdPath,
    input: priorityInput,
  },
  {
    path: 'categories',
    table: 'hd_categories',
    one: 'Category',
    many: 'Categories',
    key: 'id',
    id: integerIdPath,
    input: categoryInput,
  },
  {
    path: 'support-levels',
    table: 'hd_support_levels',
    one: 'SupportLevel',
    many: 'SupportLevels',
    key: 'id',
    id: integerIdPath,
    input: supportLevelInput,
  },
  // Natures are named by `identifier` in docs/admin-rules.md; the path parameter is the same either way.
  {
    path: 'natures',
    table: 'hd_natures',
    one: 'Nature',
    many: 'Natures',
    key: 'identifier',
    id: textIdPath,
    input: natureInput,
  },
];

/** The collection at this path segment, or undefined. */
export function catalogCollection(path: string): CatalogCollection | undefined {
  return CATALOG_COLLECTIONS.find((collection) => collection.path === path);
}
