// Migrations are listed here rather than found on disk, so they run the same from sources (tsx)
// and from the compiled build, on SQLite and PostgreSQL alike.
import type { Knex } from 'knex';
import * as core from './001_core';
import * as hardening from './002_hardening';
import * as outbox from './003_outbox_and_filters';
import * as parents from './004_parents';
import * as microdeposits from './005_microdeposits';
import * as mailpieces from './006_mailpieces';
import * as jobs from './007_jobs';
import * as engineSecrets from './008_engine_secrets';
import * as webhooks from './009_webhooks';
import * as campaigns from './010_campaigns';
import * as blobAssets from './011_blob_assets';
import * as uploadAudiences from './012_upload_audiences';
import * as eventCursor from './013_event_cursor';
import * as eventOutbox from './014_event_outbox';
import * as campaignMailings from './015_campaign_mailings';
import * as uspsSerials from './016_usps_serials';
import * as unsetFrom from './017_unset_from';
import * as jobPriority from './018_job_priority';
import * as agentKeys from './019_agent_keys';
import * as dashboardSessions from './020_dashboard_sessions';
import * as settingChanges from './021_setting_changes';
import * as trackingSerials from './022_tracking_serials';
import * as unattemptedFailures from './024_unattempted_failures';
import * as streetData from './026_street_data';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

const migrations: [string, Migration][] = [
  ['001_core', core],
  ['002_hardening', hardening],
  ['003_outbox_and_filters', outbox],
  ['004_parents', parents],
  ['005_microdeposits', microdeposits],
  ['006_mailpieces', mailpieces],
  ['007_jobs', jobs],
  ['008_engine_secrets', engineSecrets],
  ['009_webhooks', webhooks],
  ['010_campaigns', campaigns],
  ['011_blob_assets', blobAssets],
  ['012_upload_audiences', uploadAudiences],
  ['013_event_cursor', eventCursor],
  ['014_event_outbox', eventOutbox],
  ['015_campaign_mailings', campaignMailings],
  ['016_usps_serials', uspsSerials],
  ['017_unset_from', unsetFrom],
  ['018_job_priority', jobPriority],
  ['019_agent_keys', agentKeys],
  ['020_dashboard_sessions', dashboardSessions],
  ['021_setting_changes', settingChanges],
  ['022_tracking_serials', trackingSerials],
  ['024_unattempted_failures', unattemptedFailures],
  ['026_street_data', streetData],
];

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => migrations.map(([name]) => name),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations.find(([n]) => n === name)![1],
};
