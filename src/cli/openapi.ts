import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { openApiFiles } from './openapi-files.js';

// `npm run openapi`: writes the three OpenAPI documents under openapi/ from the route tables. Run it
// after changing a route table, and commit the files (a test fails while they differ).

for (const [path, text] of Object.entries(openApiFiles())) {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  process.stdout.write(`wrote ${path}\n`);
}
