// Settings: the account's settings (one form each, parsed as `printpost settings set` parses them) and
// the operator's USPS identity, which the engine reads from its environment (USPS_* variables) and
// which live pieces need before they go to production.
import { isSettingName, parseSetting, SETTINGS } from '../../../domain/accounts/settings';
import { uspsOf } from '../../../platform/config';
import { page, type DashboardRequest, type PageAnswer, type Rendered } from '../page';

function settingsData({ services, session }: DashboardRequest) {
  const { config } = services;
  const usps = uspsOf(config);
  const values: Record<string, unknown> = { ...session.account.settings };
  return {
    settings: Object.entries(SETTINGS).map(([name, spec]) => ({
      name,
      help: spec.help,
      value: String(values[name]),
      fallback: String(spec.default),
      boolean: typeof spec.default === 'boolean',
      isTrue: values[name] === true,
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
  return { view: 'settings', title: 'Settings', nav: 'settings', data: settingsData(request) };
}

async function save(request: DashboardRequest): Promise<PageAnswer> {
  const { services, session, form } = request;
  const name = form.name ?? '';
  const value = isSettingName(name) ? parseSetting(name, (form.value ?? '').trim()) : undefined;
  if (!isSettingName(name) || value === undefined)
    return {
      view: 'settings',
      title: 'Settings',
      nav: 'settings',
      status: 422,
      data: { ...settingsData(request), problem: `${name || 'That setting'} cannot be set to that value.` },
    };
  await services.accounts.setSetting(session.account.id, name, value);
  return { redirect: '/dashboard/settings', notice: 'setting_saved' };
}

export const settingsPages = [page('GET', '/settings', settings), page('POST', '/settings', save)];
