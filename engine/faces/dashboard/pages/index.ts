// Every dashboard page's routes, and the nav the layout shows. A new page adds its file's routes here
// and, if it has a nav entry, a line to NAV.
import type { PageRoute } from '../page';
import { overviewPages } from './overview';
import { mailPages } from './mail';
import { piecePages } from './piece';
import { addressPages } from './addresses';
import { keyPages } from './keys';
import { settingsPages } from './settings';
import { healthPages } from './health';
import { templatePages } from './templates';
import { campaignPages } from './campaigns';
import { campaignSettingsPages } from './campaign-settings';
import { campaignAudiencePages } from './campaign-audience';
import { campaignCreativePages } from './campaign-creatives';
import { webhookPages } from './webhooks';

export const NAV: readonly { name: string; href: string; label: string }[] = [
  { name: 'overview', href: '/dashboard', label: 'Overview' },
  { name: 'mail', href: '/dashboard/mail', label: 'Mail' },
  { name: 'addresses', href: '/dashboard/addresses', label: 'Addresses' },
  { name: 'templates', href: '/dashboard/templates', label: 'Templates' },
  { name: 'campaigns', href: '/dashboard/campaigns', label: 'Campaigns' },
  { name: 'webhooks', href: '/dashboard/webhooks', label: 'Webhooks' },
  { name: 'keys', href: '/dashboard/keys', label: 'Keys' },
  { name: 'settings', href: '/dashboard/settings', label: 'Settings' },
  { name: 'health', href: '/dashboard/health', label: 'Health' },
];

export const DASHBOARD_PAGES: readonly PageRoute[] = [
  ...overviewPages,
  ...mailPages,
  ...piecePages,
  ...addressPages,
  ...keyPages,
  ...settingsPages,
  ...healthPages,
  ...templatePages,
  // the builder's /campaigns/new before the review's /campaigns/{id}
  ...campaignSettingsPages,
  ...campaignAudiencePages,
  ...campaignCreativePages,
  ...campaignPages,
  ...webhookPages,
];
