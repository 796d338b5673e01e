// Configuration from environment variables, declared once: name, default and meaning. The start banner,
// `printpost --help` and the README's table are all built from this list (a test holds the README to it).
import { DEFAULT_DATABASE } from '../store/store';
import {
  registeredRange,
  type RegisteredRange,
  S10_CHECKS,
  USPS_CHECKS,
  uspsReadiness,
  type UspsReadiness,
} from '../catalog/usps-identity';
import { checked, ConfigError, count, list, oneOf, positive, required, stid, text, toolNames } from './config-values';

export { ConfigError };

interface Variable<T> {
  env: string;
  /** the default as an operator would write it; null: unset */
  default: string | null;
  meaning: string;
  parse(raw: string | undefined, env: string): T;
}

export const VARIABLES = {
  port: { env: 'PORT', default: '8000', meaning: 'port to listen on (0 picks a free one)', parse: count },
  host: { env: 'HOST', default: '127.0.0.1', meaning: 'address to listen on', parse: required },
  databaseUrl: {
    env: 'DATABASE_URL',
    default: DEFAULT_DATABASE,
    meaning: 'a file path or `sqlite:` URL, or `postgres://…` for PostgreSQL (several engine processes can share it)',
    parse: required,
  },
  databasePoolMax: {
    env: 'DATABASE_POOL_MAX',
    default: '10',
    meaning: 'PostgreSQL connections per engine process',
    parse: count,
  },
  tlsCert: { env: 'TLS_CERT_FILE', default: null, meaning: 'certificate (PEM) to serve HTTPS directly', parse: text },
  tlsKey: { env: 'TLS_KEY_FILE', default: null, meaning: 'private key (PEM) for TLS_CERT_FILE', parse: text },
  trustedProxies: {
    env: 'TRUSTED_PROXIES',
    default: null,
    meaning: 'comma-separated addresses whose `X-Forwarded-Proto`/`-Host` are believed',
    parse: list,
  },
  publicUrl: {
    env: 'PUBLIC_URL',
    default: null,
    meaning: 'origin used in `next_url` and other links (default: from each request)',
    parse: text,
  },
  keyCacheMs: {
    env: 'KEY_CACHE_MS',
    default: '2000',
    meaning: "how long a key's account and settings are cached (settings changes show within it)",
    parse: count,
  },
  logLevel: {
    env: 'LOG_LEVEL',
    default: 'error',
    meaning: '`error` logs server errors, `info` one JSON line a request, `silent` nothing',
    parse: oneOf('error', 'info', 'silent'),
  },
  maxBodyBytes: {
    env: 'MAX_BODY_BYTES',
    default: '1048576',
    meaning: 'largest JSON or form body (413 past it)',
    parse: count,
  },
  maxFileBytes: { env: 'MAX_FILE_BYTES', default: '20971520', meaning: 'largest uploaded file', parse: count },
  uploadDir: {
    env: 'UPLOAD_DIR',
    default: null,
    meaning: 'where multipart uploads are streamed while a request lasts (default: a folder in the system temp dir)',
    parse: text,
  },
  headersTimeoutMs: {
    env: 'HEADERS_TIMEOUT_MS',
    default: '10000',
    meaning: "time a client has to send a request's headers (then 408)",
    parse: count,
  },
  requestTimeoutMs: {
    env: 'REQUEST_TIMEOUT_MS',
    default: '30000',
    meaning:
      'time a client has to send a whole request, body included (then 408); raise it for big uploads on slow links',
    parse: count,
  },
  shutdownTimeoutMs: {
    env: 'SHUTDOWN_TIMEOUT_MS',
    default: '20000',
    meaning:
      'on SIGTERM the engine stops accepting, then gives requests in flight and running jobs this long; jobs still running then are handed back for another process at once (a second SIGTERM ends it now)',
    parse: count,
  },
  metricsToken: {
    env: 'METRICS_TOKEN',
    default: null,
    meaning: 'bearer token that GET /metrics (Prometheus text) asks for; unset, /metrics is off (404)',
    parse: text,
  },
  idempotencyLeaseMs: {
    env: 'IDEMPOTENCY_LEASE_MS',
    default: '30000',
    meaning:
      'how long an unfinished request holds its idempotency key (after a crash, a retry runs again once it lapses)',
    parse: count,
  },
  rateLimits: {
    env: 'RATE_LIMITS',
    default: 'auto',
    meaning:
      '`database` counts rate limits across processes (PostgreSQL), `process` in each process; `auto` picks by database',
    parse: oneOf('auto', 'database', 'process'),
  },
  workers: {
    env: 'WORKERS',
    // more pieces than warm pages, so a page is never idle while a piece is merged, composed or stored
    default: '4',
    meaning:
      'background jobs (rendering) a process works at once; `serve --no-workers` and `work` split API and workers',
    parse: count,
  },
  chromiumPath: {
    env: 'CHROMIUM_PATH',
    default: null,
    meaning: 'the Chromium or Chrome that renders artwork (default: a system one, else the one `npm ci` brings)',
    parse: text,
  },
  renderPages: {
    env: 'RENDER_PAGES',
    default: '2',
    meaning: 'warm browser pages a worker process keeps for rendering',
    parse: count,
  },
  renderTimeoutMs: {
    env: 'RENDER_TIMEOUT_MS',
    default: '30000',
    meaning: 'time one side of a piece may take to render; past it the piece fails with a reason',
    parse: count,
  },
  renderThumbnails: {
    env: 'RENDER_THUMBNAILS',
    default: 'on',
    meaning: '`off`: rendered pieces get no thumbnails (their PDF only; the render bench measures the engine so)',
    parse: oneOf('on', 'off'),
  },
  renderIdleMs: {
    env: 'RENDER_IDLE_MS',
    // the engine's whole process tree is back under 300 MB within a minute of its last render
    default: '45000',
    meaning:
      'the browser and the merge and thumbnail threads start with the first render and stop after this long without one (0: they stay)',
    parse: count,
  },
  maxRssMb: {
    env: 'MAX_RSS_MB',
    default: '1536',
    meaning:
      'resident memory of the engine process past which requests that bring work (POST, PUT, PATCH) get 503 with Retry-After; GETs still answer (0: no ceiling)',
    parse: count,
  },
  allowedPrivateNetworks: {
    env: 'ALLOWED_PRIVATE_NETWORKS',
    default: null,
    meaning:
      'comma-separated CIDRs of loopback, private or link-local networks remote artwork may be fetched from and webhooks may deliver to (a webhook URL elsewhere on them is refused at create and update)',
    parse: list,
  },
  remoteFileTimeoutMs: {
    env: 'REMOTE_FILE_TIMEOUT_MS',
    default: '40000',
    meaning: 'time a remote artwork URL has to download when a piece is created (then `invalid_file_download_time`)',
    parse: count,
  },
  webhookTimeoutMs: {
    env: 'WEBHOOK_TIMEOUT_MS',
    default: '10000',
    meaning: 'time a webhook receiver has to answer a delivery; no answer by then is a failed attempt',
    parse: count,
  },
  webhookRetryBaseMs: {
    env: 'WEBHOOK_RETRY_BASE_MS',
    default: '10000',
    meaning: 'wait after a failed delivery attempt, doubled after each (8 attempts in all, at most an hour apart)',
    parse: count,
  },
  webhookDisableAfterHours: {
    env: 'WEBHOOK_DISABLE_AFTER_HOURS',
    default: '72',
    meaning:
      'a webhook whose deliveries have failed without a success for this long is disabled, with its reason shown (fractions allowed)',
    parse: positive,
  },
  campaignRunLeaseMs: {
    env: 'CAMPAIGN_RUN_LEASE_MS',
    default: '30000',
    meaning:
      'how long a campaign run job holds its run: it makes pieces for a third of this, then hands the rest to a new job; after a crash another process takes the run over once this has passed',
    parse: count,
  },
  assetStore: {
    env: 'ASSET_STORE',
    default: '.data/assets',
    meaning:
      'where rendered PDFs, thumbnails, uploads and exports live: a directory, or `s3://bucket/prefix` (credentials from the AWS SDK chain: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, or a role); with several machines, one bucket for all',
    parse: required,
  },
  s3Endpoint: {
    env: 'S3_ENDPOINT',
    default: null,
    meaning: 'endpoint of an S3-compatible store for ASSET_STORE=s3://… (default: AWS in AWS_REGION)',
    parse: text,
  },
  assetSigningKey: {
    env: 'ASSET_SIGNING_KEY',
    default: null,
    meaning: 'secret that signs asset links (default: one generated and kept in the database, shared by its processes)',
    parse: text,
  },
  printOutbox: {
    env: 'PRINT_OUTBOX',
    default: '.data/outbox',
    meaning:
      'folder the print room takes production from: one dated folder a day, each live piece its PDF and JSON job ticket',
    parse: required,
  },
  trackingInbox: {
    env: 'TRACKING_INBOX',
    default: '.data/inbox',
    meaning:
      'folder of scan records (one JSON file each) that become tracking events; taken ones go to `done/`, bad ones to `rejected/`',
    parse: required,
  },
  uspsMailerId: {
    env: 'USPS_MAILER_ID',
    default: null,
    meaning:
      "your USPS Mailer ID (6 or 9 digits), printed in every live piece's Intelligent Mail barcode; live pieces wait for it",
    parse: checked(USPS_CHECKS.mailerId),
  },
  uspsCrid: {
    env: 'USPS_CRID',
    default: null,
    meaning: 'your USPS Customer Registration ID (CRID), the one your Mailer ID and permit belong to',
    parse: checked(USPS_CHECKS.crid),
  },
  uspsPermitNumber: {
    env: 'USPS_PERMIT_NUMBER',
    default: null,
    meaning: 'the permit number the postage indicia of live pieces names (PERMIT NO.)',
    parse: checked(USPS_CHECKS.permitNumber),
  },
  uspsPermitCity: {
    env: 'USPS_PERMIT_CITY',
    default: null,
    meaning: 'city of the post office that holds the permit, printed in the indicia',
    parse: checked(USPS_CHECKS.permitCity),
  },
  uspsPermitState: {
    env: 'USPS_PERMIT_STATE',
    default: null,
    meaning: 'two-letter state of the permit office, printed in the indicia',
    parse: checked(USPS_CHECKS.permitState),
  },
  uspsStidFirstClass: {
    env: 'USPS_STID_FIRST_CLASS',
    default: '300',
    meaning: 'IMb service type identifier of First-Class Mail pieces (300: basic, no address correction)',
    parse: stid,
  },
  uspsStidMarketing: {
    env: 'USPS_STID_MARKETING',
    default: '301',
    meaning: 'IMb service type identifier of Marketing Mail (`usps_standard`) pieces',
    parse: stid,
  },
  uspsS10ServiceIndicator: {
    env: 'USPS_S10_SERVICE_INDICATOR',
    default: null,
    meaning:
      'the two-letter S10 service indicator of the registered mail range USPS assigned you (RR, RA, ...); without the range, live registered letters are refused',
    parse: checked(S10_CHECKS.indicator),
  },
  uspsS10FirstSerial: {
    env: 'USPS_S10_FIRST_SERIAL',
    default: null,
    meaning: 'first 8-digit serial of your registered mail range; registered numbers are drawn from it in order',
    parse: checked(S10_CHECKS.serial),
  },
  uspsS10LastSerial: {
    env: 'USPS_S10_LAST_SERIAL',
    default: null,
    meaning: 'last 8-digit serial of your registered mail range; once it is given, registered letters are refused',
    parse: checked(S10_CHECKS.serial),
  },
  mcpTools: {
    env: 'MCP_TOOLS',
    default: null,
    meaning:
      'AI agent tools (MCP) to turn on or off beside the defaults, as `+name,-name` (`+delete_address,-send_check`); deletes, bank accounts, billing groups and template writes are off unless named',
    parse: toolNames,
  },
  dashboardSessionMinutes: {
    env: 'DASHBOARD_SESSION_MINUTES',
    default: '720',
    meaning: 'how long a dashboard sign-in lasts before the key is asked for again (fractions allowed)',
    parse: positive,
  },
  bootstrapAccount: {
    env: 'ACCOUNT_NAME',
    default: 'default',
    meaning: 'name of the account created on an empty database by `serve` (which prints its keys) or `keys create`',
    parse: required,
  },
} satisfies Record<string, Variable<unknown>>;

type Variables = typeof VARIABLES;
export type EngineConfig = { readonly [K in keyof Variables]: ReturnType<Variables[K]['parse']> };

type Env = Record<string, string | undefined>;

/** Reads every declared variable (an empty value counts as unset); throws ConfigError on a bad value. */
export function loadConfig(env: Env = process.env): EngineConfig {
  const entries = Object.entries(VARIABLES).map(([key, v]: [string, Variable<unknown>]) => {
    const raw = env[v.env] === undefined || env[v.env] === '' ? (v.default ?? undefined) : env[v.env];
    return [key, v.parse(raw, v.env)];
  });
  const config = Object.fromEntries(entries) as EngineConfig;
  registeredRangeOf(config); // a range set in part or backwards stops the start
  return config;
}

/** The S10 range of registered mail, undefined when none is configured; throws on a broken one. */
export function registeredRangeOf(config: EngineConfig): RegisteredRange | undefined {
  const range = registeredRange({
    indicator: config.uspsS10ServiceIndicator,
    first: config.uspsS10FirstSerial,
    last: config.uspsS10LastSerial,
  });
  if (range && 'wrong' in range) throw new ConfigError(range.wrong);
  return range;
}

/** The USPS identity live production needs, or what is missing of it. */
export function uspsOf(config: EngineConfig): UspsReadiness {
  return uspsReadiness({
    mailerId: config.uspsMailerId,
    crid: config.uspsCrid,
    permitNumber: config.uspsPermitNumber,
    permitCity: config.uspsPermitCity,
    permitState: config.uspsPermitState,
    stidFirstClass: config.uspsStidFirstClass,
    stidMarketing: config.uspsStidMarketing,
  });
}

const shown = (value: unknown): string =>
  value === undefined ? '(unset)' : value instanceof Set ? [...value].join(',') || '(none)' : String(value);

/** Secrets: the banner says whether they are set, never what they are (logs outlive them). */
const SECRET_VARIABLES = new Set<string>(['assetSigningKey', 'metricsToken']);

/** The lines printed at start: every variable and its value (the database without credentials). */
export function describeConfig(config: EngineConfig, databaseLabel: string): string[] {
  return Object.entries(VARIABLES).map(([key, v]) => {
    const given = config[key as keyof EngineConfig];
    const value =
      key === 'databaseUrl'
        ? databaseLabel
        : SECRET_VARIABLES.has(key) && given !== undefined
          ? '(set, not shown)'
          : shown(given);
    return `  ${v.env}=${value}`;
  });
}

/** The README's and `--help`'s table of variables. */
export function configTable(): string {
  const rows = Object.values(VARIABLES).map(
    (v) => `| \`${v.env}\` | ${v.default === null ? 'unset' : `\`${v.default}\``} | ${v.meaning} |`,
  );
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}
