import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { LinkOutcome } from '../identity/one-time-link.js';
import type { DbSessionStore } from '../identity/session-store.js';
import type { SignInLimit, SignInLimits } from '../identity/sign-in-limit.js';
import type { RateLimitStore } from '../rate-limit/rate-limit-store.js';
import type { SafeHtml } from './html.js';
import type { Catalogue, Locale, Translate } from './i18n.js';
import type { WebAsset } from './web-assets.js';
import type { WebMessage } from './web-messages.js';

// What a web face is made of (its users, texts, assets and pages) and the kit its pages are written
// with: send a page in the face's frame, require a signed-in user, redirect within the face.

/** Who signs in to a face, as its pages need them. */
export interface FaceUser {
  readonly id: string;
  readonly name: string;
}

/** The face's users, as its sign-in and password pages use them. */
interface FaceUsers<U extends FaceUser> {
  /** The user of a session; undefined when unknown or disabled (the session then counts for nothing). */
  get(id: string): Promise<U | undefined>;
  authenticate(email: string, password: string): Promise<U | null>;
  link(token: string): Promise<LinkOutcome<U>>;
  setPasswordWithLink(token: string, password: string): Promise<LinkOutcome<U>>;
  changePassword(userId: string, current: string, next: string): Promise<boolean>;
}

/** The texts a face must have besides the shared ones. */
export type FaceMessage = WebMessage | 'faceName' | 'backHome';

/** A face's files: its stylesheet, its script, Chart.js for the pages that draw, and its tab's icon. */
export interface FaceAssets {
  stylesheet: WebAsset;
  script: WebAsset;
  chart: WebAsset;
  icon: WebAsset;
}

/** What a page is rendered with. */
export interface FaceContext<U, K extends string> {
  t: Translate<K>;
  locale: Locale;
  csrf: string;
  user: U | null;
}

/** The context of a page that a signed-in user asked for. */
export type SignedInContext<U, K extends string> = FaceContext<U, K> & { user: U };

/** How a page is sent. */
interface SendOptions {
  status?: number;
  /** The page draws charts: Chart.js is loaded before the face's script. */
  charts?: boolean;
}

/** What a face's pages are registered with. */
export interface FaceKit<U extends FaceUser, K extends string> {
  readonly prefix: string;
  /** Renders a page in the face's frame. */
  send: (
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: FaceContext<U, K>,
    title: string,
    body: SafeHtml,
    options?: SendOptions,
  ) => FastifyReply;
  /** The page's context, signed in or not. */
  context: (request: FastifyRequest, reply: FastifyReply) => Promise<FaceContext<U, K>>;
  /** The signed-in user's context, or null after redirecting to the sign-in page. */
  signedIn: (request: FastifyRequest, reply: FastifyReply) => Promise<SignedInContext<U, K> | null>;
  /** A 303 to a path of the face (after a form post). */
  redirect: (reply: FastifyReply, path: string) => FastifyReply;
  /** A short card: a title, a sentence and the way home. */
  message: (ctx: FaceContext<U, K>, title: string, text: string) => SafeHtml;
  /** The CSRF check every form post passes first. */
  csrf: preHandlerHookHandler;
  /** Sets the message the next page shows once. */
  flash: (request: FastifyRequest, text: string) => void;
  /** The face's sessions (to end a user's when their password changes). */
  readonly sessions: DbSessionStore;
  /** The sign-in limit, for a page that takes an e-mail address (a reset request). */
  readonly signInLimit: SignInLimit;
}

/** One face. */
export interface FaceSpec<U extends FaceUser, K extends string> {
  /** `panel`, `console`: the sessions' and sign-in limits' namespace. */
  name: string;
  /** `/panel`, `/console`. */
  prefix: string;
  cookieName: string;
  catalogue: Catalogue<K | FaceMessage>;
  users: FaceUsers<U>;
  deps: {
    sessionsOf(face: string): DbSessionStore;
    clock: Clock;
    rateLimits: RateLimitStore;
    config: Config;
  };
  signInLimits?: Partial<SignInLimits> | undefined;
  /** How long a session lasts without use. */
  idleMs: number;
  /** Where a signed-in user lands (`/keys`). */
  home: string;
  /** The navigation of a signed-in user. */
  nav(user: U, t: Translate<K | FaceMessage>): { href: string; label: string }[];
  assets(): FaceAssets;
  /** What the sign-in page offers beside its button (a link to reset the password). */
  signInLinks?(ctx: FaceContext<U, K | FaceMessage>): SafeHtml;
  /**
   * Answers the sign-in page's request instead, when the face is not ready for anyone to sign in yet
   * (the console before its first operator): true when it answered, false to show the sign-in page.
   */
  beforeSignIn?(request: FastifyRequest, reply: FastifyReply): Promise<boolean>;
  /** Registers the face's own pages. */
  pages(scope: FastifyInstance, kit: FaceKit<U, K | FaceMessage>): void;
  /** Told when a user signs in, signs out or changes their password (the console records them). */
  onSession?(event: 'signIn' | 'signOut' | 'changePassword', user: U, request: FastifyRequest): Promise<void>;
}
