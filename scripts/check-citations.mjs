// Fails when a tracked file cites something a clone of the repository does not contain: a `*.md` file, or
// a path under docs/, openapi/ or src/ that does not exist, or one of the names of the contract documents
// that were never part of the repository (their rules now live in docs/). Run from the repository's root;
// prints file:line for each miss and exits 1, or exits 0 quietly.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, normalize } from 'node:path';
import process from 'node:process';

const SELF = 'scripts/check-citations.mjs';
const SCANNED = /\.(ts|md|mjs|js|json)$/;
const SKIPPED = /(^|\/)(node_modules|package-lock\.json$)/;

/** Names of documents kept outside the repository: their rules are in docs/ now. */
const OUTSIDE = [
  { pattern: /\bpos-data-api\.md\b/g, instead: 'docs/pos-api.md' },
  { pattern: /\bhelpdesk-ticket-api\.md\b/g, instead: 'docs/ticket-api.md' },
  { pattern: /\badmin-api\.md\b/g, instead: 'docs/admin-rules.md' },
  { pattern: /\bDECISIONS\b/g, instead: 'the Settled details of docs/ticket-api.md or docs/pos-api.md' },
];

// A web address is not a file of the repository: it is blanked before the paths are looked for.
const URL = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'`)<>\]]+/gi;
// `*.md` files, bare or relative (`README.md`, `../README.md`, `docs/data.md`).
const MARKDOWN = /(?<![\w@/.-])((?:\.{1,2}\/)*[\w][\w./-]*\.md)(?![\w-])/g;
// Paths under the three folders whose contents comments cite; one followed by a pattern's or a
// template's sign (`accounts*.ts`, `<domain>`, `${name}`) names no single file and is left alone.
const TREE = /(?<![\w@/.-])((?:docs|openapi|src)\/[\w./-]*)(?![*<{$\w])/g;

/** The folders a path cited in `file` may start from: the root, the file's own, and those between. */
function bases(file) {
  const folders = ['.'];
  for (let folder = dirname(file); folder !== '.'; folder = dirname(folder)) folders.push(folder);
  return folders;
}

/** Whether `cited`, read from `file`, names something in the checkout. A bare `*.md` name may be anywhere. */
function exists(cited, file, basenames) {
  const path = cited.replace(/[.-]+$/, '');
  if (!path.includes('/') && basenames.has(path)) return true;
  return bases(file)
    .map((base) => normalize(join(base, path)))
    .some((candidate) => !candidate.startsWith('..') && existsSync(candidate));
}

/**
 * The parts of a code file's lines that are comments (`//` to the end, or inside a block comment): paths in
 * code are the compiler's and the tests' business, and a string in code is often a URL's path, not a file.
 */
function commentsOf(lines) {
  let inBlock = false;
  return lines.map((line) => {
    let comment = '';
    let rest = line;
    while (rest !== '') {
      if (inBlock) {
        const end = rest.indexOf('*/');
        comment += ` ${end < 0 ? rest : rest.slice(0, end)}`;
        if (end < 0) break;
        inBlock = false;
        rest = rest.slice(end + 2);
        continue;
      }
      const start = rest.search(/\/\/|\/\*/);
      if (start < 0) break;
      if (rest.startsWith('//', start)) {
        comment += ` ${rest.slice(start + 2)}`;
        break;
      }
      inBlock = true;
      rest = rest.slice(start + 2);
    }
    return comment;
  });
}

function tracked() {
  const out = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return out.split('\0').filter((file) => file !== '' && SCANNED.test(file) && !SKIPPED.test(file));
}

const files = tracked();
const basenames = new Set(files.map((file) => basename(file)));
const misses = [];
for (const file of files) {
  if (!existsSync(file)) continue; // deleted in the work tree, not yet in the index
  const lines = readFileSync(file, 'utf8').split('\n');
  const comments = file.endsWith('.md') || file.endsWith('.json') ? lines : commentsOf(lines);
  lines.forEach((text, index) => {
    const where = `${file}:${index + 1}`;
    if (file !== SELF) {
      for (const { pattern, instead } of OUTSIDE) {
        for (const found of text.matchAll(pattern)) {
          misses.push(`${where}: "${found[0]}" is not in the repository; cite ${instead}`);
        }
      }
    }
    const blank = (url) => ' '.repeat(url.length);
    const local = text.replace(URL, blank);
    const comment = comments[index].replace(URL, blank);
    const cited = new Set([...local.matchAll(MARKDOWN), ...comment.matchAll(TREE)].map((found) => found[1]));
    for (const path of cited) {
      if (OUTSIDE.some(({ pattern }) => new RegExp(pattern.source).test(path))) continue; // reported above
      if (!exists(path, file, basenames)) misses.push(`${where}: ${path} does not exist`);
    }
  });
}

if (misses.length > 0) {
  const lines = misses.map((miss) => `  ${miss}\n`).join('');
  process.stderr.write(`Citations of files that do not exist (${misses.length}):\n${lines}`);
  process.exitCode = 1;
}
