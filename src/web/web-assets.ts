import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

// Files the web faces' pages load (stylesheet, their script, the chart library), installed from npm or
// written here, and served by the service under a path that changes with their bytes (issue 13: no CDN,
// nothing fetched at run time).

/** A file served under a fingerprinted path. */
export interface WebAsset {
  /** `<name>-<sha256 prefix>.<ext>`, relative to the face's assets folder. */
  file: string;
  type: string;
  body: Buffer;
  gzip: Buffer;
}

/** A fingerprinted asset of these parts. */
export function webAsset(
  name: string,
  extension: string,
  type: string,
  parts: (Buffer | string)[],
): WebAsset {
  const body = Buffer.from(
    parts
      .map((part) => part.toString())
      .join('\n')
      .replace(/^\/[/*]# sourceMappingURL=.*$/gm, ''),
  );
  const fingerprint = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { file: `${name}-${fingerprint}.${extension}`, type, body, gzip: gzipSync(body) };
}

/**
 * A file beside an installed package's entry point (`packageFile('chart.js', 'chart.umd.min.js')`): a
 * package's `exports` may not name the file itself.
 */
function packageFile(name: string, file: string): Buffer {
  return readFileSync(join(dirname(createRequire(import.meta.url).resolve(name)), file));
}

/** Answers with the asset: kept a year by the browser (its path changes with its bytes), gzip on request. */
export function sendWebAsset(request: FastifyRequest, reply: FastifyReply, asset: WebAsset): FastifyReply {
  reply
    .type(asset.type)
    .header('cache-control', 'public, max-age=31536000, immutable')
    .header('vary', 'accept-encoding');
  if (/\bgzip\b/i.test(request.headers['accept-encoding'] ?? '')) {
    return reply.header('content-encoding', 'gzip').send(asset.gzip);
  }
  return reply.send(asset.body);
}

/**
 * The icon of a web page's tab (the panel, the console, the documentation pages): an arch, a gateway, in
 * white on the page's colour. An SVG every current browser takes as a favicon; linked from each page's
 * head, so that no browser asks for `/favicon.ico`, which nothing serves.
 */
export function faviconSvg(colour: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="${colour}"/><path d="M9.5 25V14.5a6.5 6.5 0 0 1 13 0V25" fill="none" stroke="#fff" stroke-width="3.5" stroke-linecap="round"/><circle cx="16" cy="20.5" r="2.5" fill="#fff"/></svg>\n`;
}

/** A face's icon: `faviconSvg` in the face's colour, fingerprinted like its other files. */
export function faviconAsset(name: string, colour: string): WebAsset {
  return webAsset(`${name}-icon`, 'svg', 'image/svg+xml', [faviconSvg(colour)]);
}

let chart: WebAsset | undefined;

/** Chart.js, as installed from npm, for the pages of any face that draw a chart (built once). */
export function chartAsset(): WebAsset {
  chart ??= webAsset('chart', 'js', 'text/javascript; charset=utf-8', [
    packageFile('chart.js', 'chart.umd.min.js'),
  ]);
  return chart;
}
