import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { faviconSvg } from '../web/web-assets.js';
import { DOCS_STYLE } from './docs-style.js';
import { PROBLEMS_STYLE } from './problems-style.js';

/** A file the documentation pages load, served under a path that changes whenever its bytes do. */
export interface DocsAsset {
  /** Its path under the documentation prefix, fingerprinted: `/assets/<name>-<sha256 prefix>.<ext>`. */
  path: string;
  /** Its media type. */
  type: string;
  /** Its bytes. */
  body: Buffer;
  /** The same bytes gzip-compressed, for a browser that accepts gzip (the renderer is ~1.7 MB, ~0.5 gzipped). */
  gzip: Buffer;
}

/** The files the pages load: the renderer's script, one stylesheet, and the tab's icon. */
export interface DocsAssets {
  script: DocsAsset;
  stylesheet: DocsAsset;
  icon: DocsAsset;
}

/** The colour of the pages' header, and of their tab's icon. */
const DOCS_COLOUR = '#16324f';

// What a reference page runs after the renderer. The document travels inside the page (one request fewer
// under the per-IP limit of 30 a minute), and the page's CSP lets scripts come only from this service, so
// the start cannot be an inline script: it rides at the end of the bundle. Calls are not sent from the
// page (no "Try it out"): the keys belong on the integrator's server, and the POS API is not meant to be
// called from a web page (docs/pos-api.md, What the service does). So nothing offers to authorize either:
// the plugin below draws neither the "Authorize" button nor the lock beside each operation (the renderer's
// components `authorizeBtn` and `authorizeOperationBtn`, replaced by nothing); how to send the key is in
// the getting started and in each document's description. No validator badge: it would call out.
const START_RENDERER = `
;(function () {
  var target = document.getElementById('api-reference');
  var source = document.getElementById('openapi-document');
  if (target === null || source === null) return;
  var nothing = function () { return function () { return null; }; };
  var NoAuthorization = function () {
    return { wrapComponents: { authorizeBtn: nothing, authorizeOperationBtn: nothing } };
  };
  SwaggerUIBundle({
    plugins: [NoAuthorization],
    spec: JSON.parse(source.textContent),
    domNode: target,
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    supportedSubmitMethods: [],
    validatorUrl: null,
  });
})();
`;

/** A source map comment would make the browser's developer tools ask for a file that is not served. */
const SOURCE_MAP = /^\/[/*]# sourceMappingURL=.*$/gm;

function asset(name: string, extension: string, type: string, parts: (Buffer | string)[]): DocsAsset {
  const body = Buffer.from(
    parts
      .map((part) => part.toString())
      .join('\n')
      .replace(SOURCE_MAP, ''),
  );
  const fingerprint = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { path: `/assets/${name}-${fingerprint}.${extension}`, type, body, gzip: gzipSync(body) };
}

let assets: DocsAssets | undefined;

/**
 * The renderer (Swagger UI's bundle, installed from npm as swagger-ui-dist and served by this service:
 * nothing is fetched from elsewhere) followed by the start of a reference page, its stylesheet followed
 * by the pages' own, and the tab's icon. Read once per process, on the first call.
 */
export function docsAssets(): DocsAssets {
  if (assets === undefined) {
    const dist = (file: string) =>
      readFileSync(createRequire(import.meta.url).resolve(`swagger-ui-dist/${file}`));
    assets = {
      script: asset('reference', 'js', 'text/javascript; charset=utf-8', [
        dist('swagger-ui-bundle.js'),
        START_RENDERER,
      ]),
      stylesheet: asset('docs', 'css', 'text/css; charset=utf-8', [
        dist('swagger-ui.css'),
        DOCS_STYLE,
        PROBLEMS_STYLE,
      ]),
      icon: asset('icon', 'svg', 'image/svg+xml', [faviconSvg(DOCS_COLOUR)]),
    };
  }
  return assets;
}
