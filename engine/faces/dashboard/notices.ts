// The one-line notices a page shows after a form's redirect, by code: the query carries the code, never
// the sentence, so a link cannot make the dashboard say something of its own.
export const NOTICES: Record<string, string> = {
  cancelled: 'The piece was cancelled.',
  not_cancelled: 'The piece can no longer be cancelled: its send date or cancellation window has passed.',
  key_created: 'The key was created. Copy it now: it is not shown again.',
  key_revoked: 'The key was revoked.',
  setting_saved: 'The setting was saved.',
  mode_switched: 'Mode switched.',
  template_created: 'The template was created.',
  version_saved: 'The version was saved.',
  version_published: 'The version was published.',
  campaign_approved: 'The campaign was approved.',
  campaign_rejected: 'The campaign was rejected; its pieces not in production were cancelled.',
  campaign_sent: 'A run of the campaign started.',
  campaign_paused: 'The campaign was paused.',
  campaign_resumed: 'The campaign was resumed.',
  campaign_created: 'The campaign was created. Now choose who it goes to.',
  campaign_saved: 'The settings were saved.',
  audience_uploaded: 'The file was received. Check the columns each field is read from, then save the mapping.',
  mapping_saved: 'The mapping was saved; the rows were checked again.',
  audience_removed: 'The file was removed; the campaign has no audience file.',
  audience_saved: 'The audience was saved.',
  creative_added: 'The creative was added.',
  creative_removed: 'The creative was removed.',
};

export function noticeOf(code: string | undefined): string | undefined {
  return code !== undefined && Object.hasOwn(NOTICES, code) ? NOTICES[code] : undefined;
}
