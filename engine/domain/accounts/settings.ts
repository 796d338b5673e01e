// Account settings: each declared once with its default and parser, and whether it governs live mail
// and money (then only a live-mode caller or the operator's CLI may change it); the CLI, the dashboard
// and the engine read them here.
import { USPS_VARIABLES } from '../../catalog/usps-identity';

export type SettingValue = string | number | boolean;

interface SettingSpec {
  default: SettingValue;
  help: string;
  parse(raw: string): SettingValue | undefined;
  /** it opens, limits or gates live mail (postage, checks): a test-mode caller may not change it */
  liveMoney?: true;
}

const int = (min: number, max: number) => (raw: string) =>
  /^\d+$/.test(raw) && +raw >= min && +raw <= max ? Number(raw) : undefined;
const bool = (raw: string) => (/^(true|false)$/i.test(raw) ? raw.toLowerCase() === 'true' : undefined);
const oneOf =
  (...values: string[]) =>
  (raw: string) =>
    values.includes(raw) ? raw : undefined;

export const SETTINGS = {
  rate_limit_per_5s: {
    default: 150,
    help: 'requests per key and endpoint per 5 s (verification and autocomplete get twice it)',
    parse: int(1, 10_000_000),
  },
  cancellation_window_minutes: {
    default: 5,
    help: 'minutes after creation in which a mailpiece can be cancelled',
    parse: int(0, 60 * 24 * 30),
  },
  merge_variable_strictness: {
    default: 'relaxed',
    help: 'strict: a missing merge variable is an error; relaxed: it renders empty',
    parse: oneOf('strict', 'relaxed'),
  },
  us_mail_strictness: {
    default: 'relaxed',
    help: 'strict, normal or relaxed: which deliverability an inline US `to` needs',
    parse: oneOf('strict', 'normal', 'relaxed'),
  },
  default_use_type: {
    default: '',
    help: 'marketing, operational, or empty (then use_type is required on mailpieces)',
    parse: oneOf('', 'marketing', 'operational'),
  },
  service_version: {
    default: '2020-02-11',
    help: "the account's current API version (YYYY-MM-DD)",
    parse: (raw: string) => (/^\d{4}-\d{2}-\d{2}$/.test(raw) ? raw : undefined),
  },
  payment_method_verified: {
    default: false,
    help: 'a payment method is on file (needed for live requests)',
    parse: bool,
    liveMoney: true,
  },
  email_verified: {
    default: false,
    help: 'the account e-mail is verified (needed to create live resources)',
    parse: bool,
    liveMoney: true,
  },
  address_limit: {
    default: 10_000,
    help: "live-mode limit of non-deleted addresses (the edition's limit)",
    parse: int(0, 1_000_000_000),
    liveMoney: true,
  },
  agents_send_live: {
    default: false,
    help: 'AI agents (agent keys, the MCP server) may send live mail; otherwise they preview and send test pieces only',
    parse: bool,
    liveMoney: true,
  },
  agent_pieces_per_day: {
    default: 25,
    help: 'live mailpieces AI agents may create per UTC day, counted in the database',
    parse: int(0, 1_000_000),
    liveMoney: true,
  },
  live_campaigns_require_approval: {
    default: false,
    help: 'live campaigns created without `requires_approval` require one (approve or reject) before any piece goes to production',
    parse: bool,
    liveMoney: true,
  },
  agent_max_check_amount: {
    default: 500,
    help: 'the largest check amount (dollars) an AI agent may send',
    parse: int(0, 1_000_000_000),
    liveMoney: true,
  },
} satisfies Record<string, SettingSpec>;

export type SettingName = keyof typeof SETTINGS;
export type Settings = {
  [K in SettingName]: (typeof SETTINGS)[K]['default'] extends number
    ? number
    : (typeof SETTINGS)[K]['default'] extends boolean
      ? boolean
      : string;
};

/**
 * The settings a test-mode caller may not change. Besides those the brief named: `email_verified` gates
 * every live create (with `payment_method_verified` it is what lets live keys mail at all), and
 * `address_limit` is the live-mode quota of the edition; neither means anything in test mode.
 */
export const LIVE_MONEY_SETTINGS: readonly string[] = Object.entries(SETTINGS)
  .filter(([, spec]) => 'liveMoney' in spec && spec.liveMoney)
  .map(([name]) => name);

/**
 * The operator's USPS identity also governs live mail (every live piece is printed under it). It is
 * configuration, read from the engine's environment at start: no caller of any mode can change it, and
 * the dashboard only shows it. Named here so a settings path that ever took it would refuse it.
 */
export const LIVE_MONEY_CONFIGURATION: readonly string[] = [
  ...Object.values(USPS_VARIABLES),
  'USPS_STID_FIRST_CLASS',
  'USPS_STID_MARKETING',
];

export const governsLiveMoney = (name: string): boolean => LIVE_MONEY_SETTINGS.includes(name);

export function isSettingName(name: string): name is SettingName {
  return Object.prototype.hasOwnProperty.call(SETTINGS, name);
}

/** Stored values over the defaults. */
export function resolveSettings(stored: Partial<Record<string, SettingValue>>): Settings {
  const out: Record<string, SettingValue> = {};
  for (const [name, spec] of Object.entries(SETTINGS)) out[name] = stored[name] ?? spec.default;
  return out as Settings;
}

export function parseSetting(name: SettingName, raw: string): SettingValue | undefined {
  return (SETTINGS[name] as SettingSpec).parse(raw);
}
