import { z } from 'zod';

// The one way a zod schema of the route tables becomes a schema of an OpenAPI 3.1 document: zod's own
// `z.toJSONSchema`, target JSON Schema draft 2020-12 (the dialect of OpenAPI 3.1). A schema named with
// `.meta({ id })` becomes one entry of `components.schemas`, shared by every operation that names it.

/** A JSON Schema, or any other member of an OpenAPI document, as plain data. */
export type Json = Record<string, unknown>;

/** The bound zod writes for a plain `.int()`: the safe integers, which says nothing to a reader. */
const SAFE = Number.MAX_SAFE_INTEGER;

/** Collects the named schemas of one document while its operations' schemas are converted. */
export class SchemaComponents {
  private readonly named = new Map<string, Json>();

  /**
   * The JSON Schema of `schema` as the document shows it: `input` for what a client sends (defaults
   * make a field optional), `output` for what the service answers. Named parts become references to
   * `#/components/schemas/<id>`.
   */
  convert(schema: z.ZodType, io: 'input' | 'output'): Json {
    const converted = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      // A transform's or a refinement's rule cannot be said in JSON Schema; the descriptions say it.
      unrepresentable: 'any',
    }) as Json;
    const { $schema: _dialect, $defs, ...root } = converted;
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, Json>)) {
      const tidied = tidy(def) as Json;
      const known = this.named.get(id);
      if (known !== undefined && JSON.stringify(known) !== JSON.stringify(tidied)) {
        throw new Error(`Two different schemas are named ${id} (an input and an output form?)`);
      }
      this.named.set(id, tidied);
    }
    return tidy(root) as Json;
  }

  /** The named schema `id`, after `convert` met it. */
  get(id: string): Json | undefined {
    return this.named.get(id);
  }

  /** `components.schemas`, sorted by name so that the document does not depend on the order met. */
  all(): Record<string, Json> {
    return Object.fromEntries([...this.named.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }
}

/** References into `components.schemas`; the safe-integer bounds of a plain `.int()` left out. */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [key, member] of Object.entries(value)) {
    if (key === '$ref' && typeof member === 'string') {
      out[key] = member.replace(/^#\/\$defs\//, '#/components/schemas/');
    } else if ((key === 'minimum' && member === -SAFE) || (key === 'maximum' && member === SAFE)) {
      continue;
    } else {
      out[key] = tidy(member);
    }
  }
  return out;
}

/**
 * The example of a converted schema: its own first `examples` entry, the one of the named schema it
 * refers to, or for an array of examples-bearing items a list of that one item.
 */
export function exampleOf(schema: Json, components: SchemaComponents): unknown {
  const own = schema.examples;
  if (Array.isArray(own) && own.length > 0) return own[0];
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    const named = components.get(ref.replace('#/components/schemas/', ''));
    return named === undefined ? undefined : exampleOf(named, components);
  }
  if (schema.type === 'array' && typeof schema.items === 'object' && schema.items !== null) {
    const item = exampleOf(schema.items as Json, components);
    return item === undefined ? undefined : [item];
  }
  return undefined;
}
