// Configuration from environment variables, with defaults that just work; printed at start.
import { DEFAULT_DATABASE } from './store/connection';

export interface EngineConfig {
  port: number;
  host: string;
  databaseUrl: string;
  /** addresses whose X-Forwarded-Proto is believed */
  trustedProxies: ReadonlySet<string>;
  tlsCert?: string;
  tlsKey?: string;
  /** `silent`, `error` (default: only server errors), `info` (one line a request) */
  logLevel: 'silent' | 'error' | 'info';
  /** JSON and form bodies */
  maxBodyBytes: number;
  /** each uploaded file */
  maxFileBytes: number;
  /** origin used in links (next_url, ...) when the engine sits behind something that rewrites it */
  publicUrl?: string;
  /** how long a key's account and settings are cached (a settings change shows within it) */
  keyCacheMs: number;
  /** name of the account created on an empty database */
  bootstrapAccount: string;
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): EngineConfig {
  const level = env.LOG_LEVEL ?? 'error';
  return {
    port: Number(env.PORT ?? 8000),
    host: env.HOST ?? '127.0.0.1',
    databaseUrl: env.DATABASE_URL || DEFAULT_DATABASE,
    trustedProxies: new Set((env.TRUSTED_PROXIES ?? '').split(',').map((s) => s.trim()).filter(Boolean)),
    tlsCert: env.TLS_CERT_FILE || undefined,
    tlsKey: env.TLS_KEY_FILE || undefined,
    logLevel: level === 'info' || level === 'silent' ? level : 'error',
    maxBodyBytes: Number(env.MAX_BODY_BYTES ?? 1_048_576),
    maxFileBytes: Number(env.MAX_FILE_BYTES ?? 20 * 1_048_576),
    publicUrl: env.PUBLIC_URL || undefined,
    keyCacheMs: Number(env.KEY_CACHE_MS ?? 2000),
    bootstrapAccount: env.ACCOUNT_NAME ?? 'default',
  };
}

/** The lines printed at start: every setting and where it came from. */
export function describeConfig(config: EngineConfig, label: string): string[] {
  return [
    `  PORT=${config.port}  HOST=${config.host}`,
    `  DATABASE_URL=${label}`,
    `  TLS=${config.tlsCert ? `on (${config.tlsCert})` : 'off (plain HTTP accepted from loopback only)'}  TRUSTED_PROXIES=${[...config.trustedProxies].join(',') || '(none)'}`,
    `  PUBLIC_URL=${config.publicUrl ?? '(from each request)'}`,
    `  KEY_CACHE_MS=${config.keyCacheMs}  LOG_LEVEL=${config.logLevel}  MAX_BODY_BYTES=${config.maxBodyBytes}  MAX_FILE_BYTES=${config.maxFileBytes}`,
  ];
}
