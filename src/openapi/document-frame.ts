import type { ProblemCode } from '../errors/problem-catalogue.js';
import {
  problemSchema,
  refusalExamples,
  statusProblemSchemas,
  type ProblemExtraMembers,
} from './operation-responses.js';
import type { Json, SchemaComponents } from './schema-components.js';

// The frame of each document: OpenAPI 3.1, its info, servers, bearer security scheme, paths and
// components. The APIs' documents fill it from their route tables.

/** What an API's document says around its operations. */
export interface DocumentFrame {
  readonly title: string;
  /** The API's version in the contract (`v1`). */
  readonly version: string;
  /** The API's rules in the contract's words (Markdown): order of problems, limits, versioning. */
  readonly description: string;
  readonly servers: readonly Json[];
  /** The one bearer scheme of the API. */
  readonly security: { readonly name: string; readonly description: string };
  /** What the API's problem bodies carry beyond the five common members. */
  readonly problem: { readonly intro: string; readonly extras: ProblemExtraMembers };
  readonly tags?: readonly Json[];
}

/** Assembles a document: the frame, the paths (sorted by path), and the named schemas met. */
export function openApiDocument(
  frame: DocumentFrame,
  paths: ReadonlyMap<string, Json>,
  components: SchemaComponents,
): Json {
  const operations = [...paths.values()].flatMap((item) => Object.values(item) as Json[]);
  const codes = new Set<ProblemCode>();
  for (const operation of operations) {
    for (const response of Object.values(operation.responses as Record<string, Json>)) {
      for (const code of (response['x-problem-codes'] ?? []) as ProblemCode[]) codes.add(code);
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: frame.title, version: frame.version, description: frame.description },
    servers: frame.servers,
    security: [{ [frame.security.name]: [] }],
    ...(frame.tags === undefined ? {} : { tags: frame.tags }),
    paths: Object.fromEntries([...paths.entries()].sort(([a], [b]) => a.localeCompare(b))),
    components: {
      securitySchemes: {
        [frame.security.name]: { type: 'http', scheme: 'bearer', description: frame.security.description },
      },
      schemas: {
        ...components.all(),
        Problem: problemSchema(frame.problem.intro, frame.problem.extras),
        ...statusProblemSchemas(operations),
      },
      examples: refusalExamples(codes),
    },
  };
}

/** Adds an operation to its path item. */
export function addOperation(paths: Map<string, Json>, path: string, method: string, operation: Json): void {
  const item = paths.get(path) ?? {};
  item[method] = operation;
  paths.set(path, item);
}

/** A Markdown table. */
export function markdownTable(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

/**
 * The order in which an API answers problems, one line per gate of its gate array, in the array's
 * order: a gate without a line in `lines` is a gate the document does not describe, and stops the
 * generation (so that a new gate cannot be forgotten here).
 */
export function gateOrder(
  gates: readonly { readonly name: string }[],
  lines: Readonly<Record<string, string>>,
): string {
  return gates
    .map((gate, index) => {
      const line = lines[gate.name];
      if (line === undefined) throw new Error(`The document has no line for the gate ${gate.name}`);
      return `${index + 1}. ${line}`;
    })
    .join('\n');
}
