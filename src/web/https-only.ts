import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { requestLocale, translator, type Catalogue } from './i18n.js';

// The web faces in production are served over HTTPS only (docs/production.md). Their session cookies are
// Secure, and a Secure cookie is neither set nor sent over plain HTTP: a face reached that way would show
// its sign-in page and then refuse every form as expired. So a face's page that arrives over plain HTTP
// (as seen by this process: TLS of its own, or a proxy named in TRUST_PROXY that says
// `X-Forwarded-Proto: https`) is answered with a page saying so and what the operator must set.
// A face's answers that arrived over HTTPS carry Strict-Transport-Security, so that the browser never
// tries plain HTTP again; the APIs' answers are left as they are.

/** What the faces' answers over HTTPS carry in production: a year, this host and its subdomains. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/** The status of a face's page asked for over plain HTTP in production. */
const HTTPS_ONLY_STATUS = 403;

const messages: Catalogue<'title' | 'text' | 'operator'> = {
  'pt-BR': {
    title: 'Esta página só é servida por HTTPS',
    text: 'Abra este endereço com https://. Por HTTP simples o navegador não guardaria a sessão, e não seria possível entrar.',
    operator:
      'Para quem opera o serviço: ponha-o atrás de um proxy TLS que envie X-Forwarded-Proto: https e nomeie o endereço desse proxy em TRUST_PROXY.',
  },
  en: {
    title: 'This page is served over HTTPS only',
    text: 'Open this address with https://. Over plain HTTP the browser would not keep the session, and signing in would not work.',
    operator:
      'For whoever runs the service: put it behind a TLS proxy that sends X-Forwarded-Proto: https, and name that proxy’s address in TRUST_PROXY.',
  },
};

/** The HTTPS-only page's words, in the reader's language. */
interface HttpsOnlyWords {
  title: string;
  text: string;
  operator: string;
}

/** Sends the HTTPS-only page in the face's frame (the status is set). */
export type HttpsOnlyAnswer = (
  request: FastifyRequest,
  reply: FastifyReply,
  words: HttpsOnlyWords,
) => Promise<unknown> | FastifyReply;

/** Whether the request arrived over HTTPS, as far as this process may believe (TLS or a trusted proxy). */
function arrivedOverHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

// One warning a process, the first time; every refusal is also an info line of its request. A process has
// one configuration, which both faces share: the warning is once for it (and once for each app a test
// builds with a configuration of its own).
const warned = new WeakSet<object>();

/**
 * In production, answers a face's request that arrived over plain HTTP with the HTTPS-only page, and adds
 * Strict-Transport-Security to the answers of those that arrived over HTTPS. Register it on the face's
 * scope after its cookie plugin (the page is in the language the reader chose).
 */
export function requireHttpsInProduction(
  scope: FastifyInstance,
  config: Pick<Config, 'env' | 'trustProxy'>,
  face: { name: string; prefix: string; answer: HttpsOnlyAnswer },
): void {
  if (config.env !== 'production') return;
  const assets = `${face.prefix}/assets/`;
  scope.addHook('onRequest', async (request, reply) => {
    // The face's static files hold nothing of anyone's and set no cookie: the page below is drawn with them.
    if (arrivedOverHttps(request) || request.url.startsWith(assets)) return;
    const why = {
      face: face.name,
      trustProxy: config.trustProxy.length > 0 ? config.trustProxy.join(',') : null,
      forwardedProto: request.headers['x-forwarded-proto'] ?? null,
    };
    request.log.info(why, `${face.name}: page asked for over plain HTTP, answered the HTTPS-only page`);
    if (!warned.has(config)) {
      warned.add(config);
      request.log.warn(
        why,
        `${face.name}: a page was asked for over plain HTTP; the faces are served over HTTPS only in production: put a TLS proxy in front that sends X-Forwarded-Proto: https and name it in TRUST_PROXY (docs/production.md)`,
      );
    }
    const t = translator(messages, requestLocale(request));
    reply.code(HTTPS_ONLY_STATUS);
    await face.answer(request, reply, { title: t('title'), text: t('text'), operator: t('operator') });
  });
  addStrictTransportSecurity(scope, config);
}

/** In production, Strict-Transport-Security on the scope's answers that arrived over HTTPS. */
export function addStrictTransportSecurity(scope: FastifyInstance, config: Pick<Config, 'env'>): void {
  if (config.env !== 'production') return;
  scope.addHook('onSend', (request, reply, payload, done) => {
    if (arrivedOverHttps(request)) reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
    done(null, payload);
  });
}

/**
 * The start-up warning of a production process whose faces cannot be used: no TLS proxy is trusted, so
 * every face page would answer the HTTPS-only page. Null when there is nothing to say.
 */
export function httpsOnlyStartWarning(
  config: Pick<Config, 'env' | 'trustProxy' | 'panel' | 'console' | 'adminToken'>,
): string | null {
  if (config.env !== 'production' || config.trustProxy.length > 0) return null;
  const faces = [
    ...(config.panel ? ['the merchant panel (/panel/)'] : []),
    ...(config.console && config.adminToken !== null ? ['the back-office console (/console/)'] : []),
  ];
  if (faces.length === 0) return null;
  return `TRUST_PROXY is not set: ${faces.join(' and ')} ${faces.length > 1 ? 'are' : 'is'} served over HTTPS only in production, and without a trusted TLS proxy sending X-Forwarded-Proto: https every page answers that it needs HTTPS; see docs/production.md`;
}
