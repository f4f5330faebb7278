import type { FaceAssets } from '../web/face.js';
import { RECEIPTS_UPLOAD_SCRIPT } from './pages/accounts/receipts.js';
import { DASHBOARD_SCRIPT } from './pages/dashboard.js';
import { chartAsset, faviconAsset, webAsset } from '../web/web-assets.js';
import { COPY_BUTTON_SCRIPT } from '../web/web-script.js';
import { WEB_STYLE } from '../web/web-style.js';

// The console's files: the faces' stylesheet with the console's few rules, one script (the copy button
// beside a key or link shown once, and what the page modules add), Chart.js, and the tab's icon in the
// console's colour. Every page works without the script but the receipts upload, which says so and names
// the CLI command instead.

const STYLE = `
.top { border-bottom: 3px solid #3d2c8d; }
.field { margin: 0 0 .25rem; }
.field.check label { display: flex; gap: .5rem; align-items: flex-start; font-weight: 400; }
textarea { width: 100%; max-width: 40rem; padding: .55rem .6rem; font: inherit; border: 1px solid #6b7189; border-radius: 6px; }
input[type=number], input[type=url], input[type=file] { width: 100%; max-width: 28rem; padding: .55rem .6rem; font: inherit; border: 1px solid #6b7189; border-radius: 6px; background: #fff; }
[aria-invalid=true] { border-color: var(--danger); border-width: 2px; }
#error-summary ul { margin: .25rem 0 0; padding-left: 1.25rem; }
#error-summary a { color: var(--danger); font-weight: 600; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: 1rem; margin: 1rem 0; }
.subnav { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; padding: 0; margin: 0 0 1rem; }
.subnav a[aria-current="page"] { font-weight: 700; color: var(--ink); }
.tag { display: inline-block; padding: 0 .4rem; border-radius: 4px; background: #eef0f6; font-size: .85rem; margin: 0 .25rem .25rem 0; }
code, .mono { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .92rem; overflow-wrap: anywhere; }
progress { width: 100%; max-width: 40rem; height: 1.25rem; }
.pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: .25rem 0 0; }
ul.plain { list-style: none; padding: 0; margin: 0; }
form.card > input[type=hidden] + :not(input), form.card > input[type=hidden] + .field > label:first-child { margin-top: 0; }
.row-actions { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
.choice .hint { margin: 0 0 .5rem 1.65rem; }
code.action { overflow-wrap: normal; }
/* Lists hold their layout with the longest values (ids of 64 letters, addresses of 254 characters): a
   cell's long word breaks where it must instead of widening its table past the page; a badge stays whole;
   .ellipsis keeps an id on one line, cut (its whole value in title); .cell-long is a cell's long text;
   .words (and a date) break only between words. */
td, .card dd { overflow-wrap: anywhere; }
td { min-width: 6.5rem; }
.card dd { min-width: 0; }
td time, .words { overflow-wrap: normal; }
.state { white-space: nowrap; }
.ellipsis { display: block; max-width: 14rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; overflow-wrap: normal; }
.cell-long { min-width: 14rem; overflow-wrap: anywhere; }
@media (max-width: 40rem) {
  .ellipsis { max-width: 60vw; }
  .cell-long { min-width: 0; }
  table.stack td:has(> .cell-long) { display: block; text-align: left; }
  table.stack td:has(> .cell-long)::before { display: block; }
}
`;

/** What the page modules add to the console's script, each an IIFE that looks for its own elements. */
const MODULE_SCRIPTS: readonly string[] = [DASHBOARD_SCRIPT, RECEIPTS_UPLOAD_SCRIPT];

let assets: FaceAssets | undefined;

/** The console's files, built once per process on first use. */
export function consoleAssets(): FaceAssets {
  assets ??= {
    stylesheet: webAsset('console', 'css', 'text/css; charset=utf-8', [WEB_STYLE, STYLE]),
    script: webAsset('console', 'js', 'text/javascript; charset=utf-8', [
      COPY_BUTTON_SCRIPT,
      ...MODULE_SCRIPTS,
    ]),
    chart: chartAsset(),
    icon: faviconAsset('console', '#3d2c8d'),
  };
  return assets;
}
