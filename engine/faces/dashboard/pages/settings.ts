// Settings: the account's settings (one form each, parsed as `printpost settings set` parses them), the
// latest changes of them and who made each, and the operator's USPS identity, which the engine reads
// from its environment (USPS_* variables) and which live pieces need before they go to production.
// Settings that govern live mail and money are read-only in a test-mode session: the domain refuses
// them to a test key (domain/accounts), and the page says so rather than offer a form that fails.
import { ApiError } from '../../../base/errors';
import {
  governsLiveMoney,
  isSettingName,
  LIVE_MONEY_CONFIGURATION,
  parseSetting,
  SETTINGS,
} from '../../../domain/accounts/settings';
import type { SettingChange } from '../../../domain/accounts/accounts';
import { uspsOf } from '../../../platform/config';
import { page, type DashboardRequest, type PageAnswer, type Rendered } from '../page';

/** How many of the latest changes the page lists. */
const CHANGES_SHOWN = 20;

const whoChanged = (change: SettingChange) =>
  change.by.via === 'cli'
    ? { cli: true }
    : { keyHint: change.by.keyHint, keyId: change.by.keyId, keyMode: change.by.mode };

async function settingsData({ services, session }: DashboardRequest) {
  const { config } = services;
  const usps = uspsOf(config);
  const values: Record<string, unknown> = { ...session.account.settings };
  const testMode = session.mode !== 'live';
  const changes = await services.accounts.settingChanges(session.account.id, CHANGES_SHOWN);
  return {
    testMode,
    settings: Object.entries(SETTINGS).map(([name, spec]) => ({
      name,
      help: spec.help,
      value: String(values[name]),
      fallback: String(spec.default),
      boolean: typeof spec.default === 'boolean',
      isTrue: values[name] === true,
      liveMoney: governsLiveMoney(name),
      locked: testMode && governsLiveMoney(name),
    })),
    changes: changes.map((change) => ({
      setting: change.setting,
      before: String(change.before),
      after: String(change.after),
      changedAt: change.dateCreated,
      ...whoChanged(change),
    })),
    usps: {
      ready: usps.ready,
      missing: usps.ready ? [] : usps.missing,
      rows: [
        { name: 'Mailer ID', env: 'USPS_MAILER_ID', value: config.uspsMailerId },
        { name: 'CRID', env: 'USPS_CRID', value: config.uspsCrid },
        { name: 'Permit number', env: 'USPS_PERMIT_NUMBER', value: config.uspsPermitNumber },
        { name: 'Permit city', env: 'USPS_PERMIT_CITY', value: config.uspsPermitCity },
        { name: 'Permit state', env: 'USPS_PERMIT_STATE', value: config.uspsPermitState },
        { name: 'STID First-Class', env: 'USPS_STID_FIRST_CLASS', value: config.uspsStidFirstClass },
        { name: 'STID Marketing', env: 'USPS_STID_MARKETING', value: config.uspsStidMarketing },
      ],
    },
  };
}

async function settings(request: DashboardRequest): Promise<Rendered> {
  return { view: 'settings', title: 'Settings', nav: 'settings', data: await settingsData(request) };
}

async function refused(request: DashboardRequest, status: number, problem: string): Promise<Rendered> {
  return {
    view: 'settings',
    title: 'Settings',
    nav: 'settings',
    status,
    data: { ...(await settingsData(request)), problem },
  };
}

async function save(request: DashboardRequest): Promise<PageAnswer> {
  const { services, session, form } = request;
  const name = form.name ?? '';
  if (LIVE_MONEY_CONFIGURATION.includes(name))
    return refused(request, 403, `${name} is the engine's configuration: set it in its environment and restart it.`);
  const value = isSettingName(name) ? parseSetting(name, (form.value ?? '').trim()) : undefined;
  if (!isSettingName(name) || value === undefined)
    return refused(request, 422, `${name || 'That setting'} cannot be set to that value.`);
  const by = await services.accounts.sessionKey(session.keyHashes, session.mode);
  if (!by) return refused(request, 403, 'The key this session was opened with is no longer active: sign in again.');
  try {
    await services.accounts.setSetting(session.account.id, name, value, by);
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return refused(request, error.status, error.message);
    throw error;
  }
  return { redirect: '/dashboard/settings', notice: 'setting_saved' };
}

export const settingsPages = [page('GET', '/settings', settings), page('POST', '/settings', save)];
