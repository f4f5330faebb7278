import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { TestApp } from './helper.js';

// The one way the suites of both public APIs send a request to the public listener: the request said in
// the documents' words (key, Content-Type, body, the caller's address) and sent as exactly that, with no
// header or body added.

/** A request to a public API. Only what is given is sent. */
export interface PublicRequest {
  /** GET when not given. */
  method?: InjectOptions['method'];
  url: string;
  /** Sent as `Authorization: Bearer <key>`. */
  key?: string;
  /** The whole Authorization header as given, malformed ones included; wins over `key`. */
  authorization?: string;
  /** The Content-Type header. */
  type?: string;
  /** The body as sent: text, bytes, or a stream (sent chunked, without Content-Length). */
  payload?: InjectOptions['payload'];
  /** A body of JSON text, sent with Content-Type `application/json` unless `type` says otherwise. */
  json?: string;
  /** Any other headers; they win over the ones above. */
  headers?: Record<string, string>;
  /** The caller's address (the socket's remote address); 127.0.0.1 when not given. */
  ip?: string;
}

/** Sends a request to the public listener of the test app. */
export function publicRequest(
  t: Pick<TestApp, 'call'>,
  request: PublicRequest,
): Promise<LightMyRequestResponse> {
  const authorization =
    request.authorization ?? (request.key === undefined ? undefined : `Bearer ${request.key}`);
  const type = request.type ?? (request.json === undefined ? undefined : 'application/json');
  const payload = request.json ?? request.payload;
  return t.call({
    method: request.method ?? 'GET',
    url: request.url,
    headers: {
      ...(authorization === undefined ? {} : { authorization }),
      ...(type === undefined ? {} : { 'content-type': type }),
      ...request.headers,
    },
    ...(payload === undefined ? {} : { payload }),
    ...(request.ip === undefined ? {} : { remoteAddress: request.ip }),
  });
}

/** A GET of the point-of-sale API with the key (none when undefined) and any other headers. */
export function posGet(
  t: Pick<TestApp, 'call'>,
  url: string,
  key?: string,
  headers?: Record<string, string>,
): Promise<LightMyRequestResponse> {
  return publicRequest(t, { url, key, headers });
}
