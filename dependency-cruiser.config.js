// The shape of src/ and of the client package, checked by `npm run lint` (dependency-cruiser). Each rule
// says why it exists.
/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle makes start-up order and refactoring fragile; type imports count too.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domains-apart',
      severity: 'error',
      comment:
        'The help desk, the point of sale and the staff users share rules only through neutral modules (src/lib, src/errors, src/http, src/db, src/rate-limit, src/web).',
      from: { path: '^src/(helpdesk|pos|staff)/' },
      to: { path: '^src/(helpdesk|pos|staff)/', pathNot: '^src/$1/' },
    },
    {
      name: 'audit-is-neutral',
      severity: 'error',
      comment:
        'The key audit trail and the back-office log (src/audit) are written by every domain, so they import none: each domain records its own events through them.',
      from: { path: '^src/audit/' },
      to: { path: '^src/(helpdesk|pos|staff)/' },
    },
    {
      name: 'lib-is-a-leaf',
      severity: 'error',
      comment:
        'src/lib holds shared rules (text, time, identifiers, keys, IP keying) and imports nothing of the service.',
      from: { path: '^src/lib/' },
      to: { path: '^src/', pathNot: '^src/lib/' },
    },
    {
      name: 'errors-without-framework',
      severity: 'error',
      comment:
        'The problem catalogue is read by services, a CLI and the OpenAPI generator: no Fastify, no storage.',
      from: { path: '^src/errors/' },
      to: { path: ['^src/(?!errors/)', 'node_modules/fastify'] },
    },
    {
      name: 'domains-below-faces',
      severity: 'error',
      comment:
        'Domain code never reaches up into the faces or the composition (admin API, app, server, services).',
      from: { path: '^src/(helpdesk|pos|staff|lib|errors|db|rate-limit|http|audit)/' },
      to: { path: '^src/(admin/|app\\.ts|server\\.ts|services\\.ts)' },
    },
    {
      name: 'mail-is-neutral',
      severity: 'error',
      comment:
        'The outbox and its sender carry any domain’s messages (keys today, invitations later): they import no domain and no face.',
      from: { path: '^src/mail/' },
      to: { path: '^src/(helpdesk|pos|admin)/|^src/(app|server|services)\\.ts' },
    },
    {
      name: 'shared-below-domains',
      severity: 'error',
      comment:
        'The shared modules (HTTP edge, lifecycle, observability, storage, limits, errors, lib, fleet notices) serve every API, so they import no domain: the app pairs each domain’s part (a closing refusal) with the API registry.',
      from: {
        path: '^src/(http|lifecycle|observability|lib|db|rate-limit|errors|fleet)/',
      },
      to: { path: '^src/(helpdesk|pos|staff|identity)/' },
    },
    {
      name: 'shared-below-faces',
      severity: 'error',
      comment:
        'Nor do they import a face: the panel, the console, the admin API, the web kit, the docs pages and the CLI sit on top of them.',
      from: {
        path: '^src/(http|lifecycle|observability|lib|db|rate-limit|errors|fleet|identity)/',
      },
      to: { path: '^src/(web|panel|console|admin|docs|cli)/|^src/(app|server|services)\\.ts$' },
    },
    {
      name: 'shared-layers',
      severity: 'error',
      comment:
        'The shared modules stack without folder loops: observability (what a request was, metrics, log options) under the HTTP edge, and both under the lifecycle (shutdown, readiness).',
      from: { path: '^src/observability/' },
      to: { path: '^src/(http|lifecycle)/' },
    },
    {
      name: 'http-below-lifecycle',
      severity: 'error',
      comment: 'The HTTP edge is used by the closing guard, so it does not reach back into the lifecycle.',
      from: { path: '^src/http/' },
      to: { path: '^src/lifecycle/' },
    },
    {
      name: 'identity-serves-both',
      severity: 'error',
      comment:
        'Passwords, one-time links, sessions and sign-in limits serve merchant users and staff users alike: identity imports neither side.',
      from: { path: '^src/identity/' },
      to: { path: '^src/(helpdesk|pos|staff)/' },
    },
    {
      name: 'web-kit-without-domains',
      severity: 'error',
      comment:
        'The web kit (page, forms, tables, CSRF, sign-in) is shared by the panel and the console and knows no domain: a face reaches a domain through the services it is handed (`Services`), not through the kit.',
      from: { path: '^src/web/' },
      to: { path: '^src/(helpdesk|pos|staff|panel|console|admin)/|^src/(app|server)\\.ts$' },
    },
    {
      name: 'client-stands-alone',
      severity: 'error',
      comment:
        'The client package is published on its own, with no dependency but fetch: it imports nothing of the service, only its generated types.',
      from: { path: '^packages/client/src/' },
      to: { path: '^(src|test|bench|scripts)/' },
    },
    {
      name: 'no-test-code-in-src',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
