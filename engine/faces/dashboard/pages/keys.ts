// Keys: the account's API keys by hint (never the key, which only its creation shows, once), a form to
// create one and a button to revoke one. A session acts only on keys of the modes its keys unlocked.
import { isMode } from '../session';
import { page, PageNotFound, type DashboardRequest, type PageAnswer, type Rendered } from '../page';

async function keysData({ services, session }: DashboardRequest) {
  const keys = await services.store.dashboard.keysOf(session.account.id);
  return {
    keys: keys.map((key) => ({
      ...key,
      revoked: key.date_revoked !== null,
      manageable: key.date_revoked === null && session.modes.includes(key.mode),
      revokeAction: `/dashboard/keys/${encodeURIComponent(key.id)}/revoke`,
    })),
    modes: session.modes,
  };
}

async function keys(request: DashboardRequest): Promise<Rendered> {
  return { view: 'keys', title: 'Keys', nav: 'keys', data: await keysData(request) };
}

async function create(request: DashboardRequest): Promise<Rendered> {
  const { services, session, form } = request;
  const mode = isMode(form.mode) && session.modes.includes(form.mode) ? form.mode : undefined;
  const kind = form.kind === 'publishable' ? 'publishable' : form.kind === 'secret' ? 'secret' : undefined;
  if (!mode || !kind)
    return {
      view: 'keys',
      title: 'Keys',
      nav: 'keys',
      status: 422,
      data: { ...(await keysData(request)), problem: 'Choose a mode this session signed in to, and a kind.' },
    };
  const created = await services.accounts.createKey(session.account.id, mode, kind, { agent: form.agent === 'on' });
  // shown on this answer only: a redirect would have to carry it
  return {
    view: 'keys',
    title: 'Keys',
    nav: 'keys',
    data: { ...(await keysData(request)), created, createdMode: mode, createdKind: kind },
  };
}

async function revoke(request: DashboardRequest): Promise<PageAnswer> {
  const { services, session, params } = request;
  const key = (await services.store.dashboard.keysOf(session.account.id)).find((k) => k.id === params.id);
  if (!key || !session.modes.includes(key.mode)) throw new PageNotFound();
  await services.store.dashboard.revokeKey(session.account.id, key.id, new Date().toISOString());
  services.accounts.forget();
  return { redirect: '/dashboard/keys', notice: 'key_revoked' };
}

export const keyPages = [
  page('GET', '/keys', keys),
  page('POST', '/keys', create),
  page('POST', '/keys/{id}/revoke', revoke),
];
