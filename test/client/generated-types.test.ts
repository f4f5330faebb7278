import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { generatedPath, generateTypes } from '../../packages/client/scripts/generate-types.js';

// The client's types are generated from the committed OpenAPI documents; after `npm run openapi`,
// `npm run client:generate` writes them again and this test holds them current.

it('the client types are current with openapi/ (npm run client:generate)', async () => {
  for (const name of ['help-desk', 'pos'] as const) {
    expect(await readFile(generatedPath(name), 'utf8'), name).toBe(await generateTypes(name));
  }
}, 60_000);
