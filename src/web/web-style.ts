// The stylesheet every web face starts from (the merchant panel, the back-office console): the frame,
// cards, forms, buttons, messages, tables that stack on a phone, key states. Contrast meets WCAG AA and
// every control shows its focus. A face adds its own rules after these.

export const WEB_STYLE = `
:root { --ink: #1a1f36; --muted: #4a5068; --line: #c9cedb; --bg: #f6f7fb; --card: #fff; --accent: #0b5cad;
  --accent-ink: #fff; --danger: #a4161a; --ok: #0f6b3a; --warn: #7a4b00; --focus: #ffbf47; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--card); padding: .5rem 1rem; }
.skip:focus { left: .5rem; z-index: 10; }
.top { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.5rem; padding: .75rem 1rem; background: var(--card); border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; text-decoration: none; color: var(--ink); font-size: 1.1rem; }
.top nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
.top nav a { text-decoration: none; padding: .25rem 0; display: inline-block; }
.top nav a[aria-current="page"] { font-weight: 700; border-bottom: 3px solid var(--accent); color: var(--ink); }
.session { margin-left: auto; display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1rem; }
.who { color: var(--muted); }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
main:focus { outline: none; }
h1 { font-size: 1.6rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 .5rem; }
.crumbs { color: var(--muted); margin: 0; font-size: .95rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 1rem; margin: 0 0 1rem; }
.narrow { max-width: 28rem; margin: 2rem auto; }
form.inline { display: inline; margin: 0; }
label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
fieldset { border: 1px solid var(--line); border-radius: 6px; margin: .75rem 0; padding: .5rem 1rem 1rem; }
legend { font-weight: 600; padding: 0 .25rem; }
fieldset label { font-weight: 400; display: flex; gap: .5rem; align-items: flex-start; margin: .5rem 0 0; }
input[type=text], input[type=email], input[type=password], input[type=date], select {
  width: 100%; max-width: 28rem; padding: .55rem .6rem; font: inherit; border: 1px solid #6b7189; border-radius: 6px; background: #fff; color: var(--ink); }
input[type=checkbox], input[type=radio] { width: 1.15rem; height: 1.15rem; margin-top: .2rem; flex: none; }
.hint { color: var(--muted); font-size: .92rem; margin: .25rem 0 0; }
.help { display: block; color: var(--muted); font-size: .9rem; }
button, .button { display: inline-block; font: inherit; font-weight: 600; padding: .55rem 1rem; border-radius: 6px; border: 2px solid var(--accent);
  background: var(--accent); color: var(--accent-ink); cursor: pointer; text-decoration: none; line-height: 1.3; }
button.secondary, .button.secondary { background: #fff; color: var(--accent); }
button.danger { background: var(--danger); border-color: var(--danger); color: #fff; }
button.link { background: none; border: none; color: var(--accent); padding: 0; text-decoration: underline; font-weight: 400; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin: 1rem 0 0; align-items: center; }
.flash { background: #e7f4ec; border-left: 4px solid var(--ok); padding: .75rem 1rem; margin: 0 0 1rem; }
.error { background: #fbeaea; border-left: 4px solid var(--danger); padding: .75rem 1rem; margin: 0 0 1rem; }
.warning { background: #fff4e0; border-left: 4px solid var(--warn); padding: .75rem 1rem; margin: 0 0 1rem; }
.field-error { color: var(--danger); font-weight: 600; margin: .25rem 0 0; }
textarea.secret { display: block; resize: none; word-break: break-all; line-height: 1.4; }
.secret { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .95rem; width: 100%; max-width: 40rem; padding: .6rem; border: 2px dashed var(--accent); border-radius: 6px; background: #f0f6ff; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; background: var(--card); }
caption { text-align: left; font-weight: 600; padding: .5rem 0; }
th, td { padding: .5rem .6rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { background: #eef0f6; }
td.num, th.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
tfoot td, tfoot th { font-weight: 700; border-top: 2px solid var(--ink); }
.state { display: inline-block; padding: .1rem .5rem; border-radius: 999px; font-size: .85rem; font-weight: 600; border: 1px solid; }
.state-active { color: var(--ok); } .state-paused { color: var(--warn); } .state-expired, .state-revoked { color: var(--danger); }
.quick { display: flex; flex-wrap: wrap; gap: .5rem; list-style: none; padding: 0; margin: .5rem 0; }
.quick a { display: inline-block; padding: .3rem .75rem; border: 1px solid var(--accent); border-radius: 999px; text-decoration: none; }
.filters { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: 0 1rem; align-items: end; }
.chart { position: relative; height: 18rem; margin: 1rem 0; }
.key-list { list-style: none; padding: 0; margin: 0; }
.card dl { display: grid; grid-template-columns: max-content 1fr; gap: .5rem 1.5rem; margin: 0; }
.card dt { font-weight: 600; color: var(--muted); }
.card dd { margin: 0; }
@media (max-width: 40rem) {
  .top { padding: .5rem .75rem; }
  .session { margin-left: 0; width: 100%; justify-content: space-between; }
  main { padding: .75rem; }
  h1 { font-size: 1.35rem; }
  .card dl { grid-template-columns: 1fr; gap: .1rem; }
  .card dd { margin: 0 0 .5rem; }
  table.stack thead { position: absolute; left: -9999px; }
  table.stack tr { display: block; border-bottom: 2px solid var(--line); padding: .5rem 0; }
  table.stack td { display: flex; justify-content: space-between; gap: 1rem; border: none; padding: .25rem .5rem; text-align: right; }
  table.stack td::before { content: attr(data-label); font-weight: 600; text-align: left; color: var(--muted); }
  table.stack th[scope=row] { display: block; border: none; }
  table.figures tr { display: grid; grid-template-columns: 1fr 1.4fr 1fr; padding: 0 0 .4rem; }
  table.figures th[scope=row] { grid-column: 1 / -1; padding: .4rem .5rem; }
  table.figures td { display: block; padding: .2rem .5rem 0; }
  table.figures td::before { display: block; font-size: .8rem; font-weight: 600; text-align: right; }
  table.figures tfoot tr { border-top: 2px solid var(--ink); }
  table.figures tfoot td, table.figures tfoot th { border-top: none; }
}
`;
