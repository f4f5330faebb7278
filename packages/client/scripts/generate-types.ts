// Writes src/generated/*.ts, the types of both public APIs, from the OpenAPI documents the service
// generates from its route tables (openapi/ at the repository's root): `npm run generate` here, or
// `npm run client:generate` at the root after `npm run openapi`. A test fails while they differ.

import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';

/** The documents the client is typed from, and the file each one's types are written to. */
const SOURCES = {
  'help-desk': '../../../openapi/help-desk.json',
  pos: '../../../openapi/pos.json',
} as const;

/** Where a generated file lives. */
export function generatedPath(name: keyof typeof SOURCES): string {
  return fileURLToPath(new URL(`../src/generated/${name}.ts`, import.meta.url));
}

/** The text of one generated file: openapi-typescript's output, formatted like the rest of the code. */
export async function generateTypes(name: keyof typeof SOURCES): Promise<string> {
  const document = JSON.parse(await readFile(new URL(SOURCES[name], import.meta.url), 'utf8')) as object;
  const text = astToString(await openapiTS(document as Parameters<typeof openapiTS>[0]));
  const path = generatedPath(name);
  const header = `// Generated from openapi/${name}.json by scripts/generate-types.ts (openapi-typescript). Do not edit.\n\n`;
  return format(header + text, { ...(await resolveConfig(path)), filepath: path });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const name of Object.keys(SOURCES) as (keyof typeof SOURCES)[]) {
    await writeFile(generatedPath(name), await generateTypes(name));
    process.stdout.write(`wrote ${generatedPath(name)}\n`);
  }
}
