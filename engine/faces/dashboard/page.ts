// What a dashboard page handler receives and answers, and the route table's entries. A page lives in
// pages/<name>.ts as a list of `page(method, path, handler)` entries, with its view in views/<name>.hbs.
import type Koa from 'koa';
import type { Scope } from '../../store/scope';
import type { Services } from '../../domain/services';
import type { DashboardSession } from './session';
import type { UploadedFile } from '../../http/multipart';

export interface DashboardRequest {
  ctx: Koa.Context;
  services: Services;
  session: DashboardSession;
  /** the account and mode every read and write of this request is held to */
  scope: Scope;
  /** the path's `{name}` parts, decoded */
  params: Record<string, string>;
  /** the query string's single values */
  query: Record<string, string>;
  /** a POST's form fields (CSRF already checked) */
  form: Record<string, string>;
  /** a multipart POST's files, on disk until the handler has answered */
  files: UploadedFile[];
}

/** A page to render: its view and data; the title and the nav's active entry go to the layout. */
export interface Rendered {
  view: string;
  title: string;
  nav?: string;
  data: Record<string, unknown>;
  status?: number;
  /** a document of its own, without the layout (the template editor's preview frame) */
  bare?: boolean;
}

/** A redirect after a POST (303), optionally with a one-line notice shown on the next page. */
export interface Redirect {
  redirect: string;
  notice?: string;
}

export type PageAnswer = Rendered | Redirect | { stream: true };

export type PageHandler = (request: DashboardRequest) => Promise<PageAnswer>;

export interface PageRoute {
  method: 'GET' | 'POST';
  /** below /dashboard, with `{name}` parts: `/mail/{id}` */
  path: string;
  handler: PageHandler;
  /** the file fields a POST of this page may carry (sent as multipart/form-data); none: a plain form */
  files?: readonly string[];
}

export const page = (
  method: PageRoute['method'],
  path: string,
  handler: PageHandler,
  files?: readonly string[],
): PageRoute => ({ method, path, handler, files });

/** A 404 page: also what another account's id gets, so it learns nothing about it. */
export class PageNotFound extends Error {}

/** A form's input refused, shown on the page it came from. */
export class FormProblem extends Error {}

export const isRedirect = (answer: PageAnswer): answer is Redirect => 'redirect' in answer;
export const isRendered = (answer: PageAnswer): answer is Rendered => 'view' in answer;
