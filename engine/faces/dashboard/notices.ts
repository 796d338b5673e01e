// The one-line notices a page shows after a form's redirect, by code: the query carries the code, never
// the sentence, so a link cannot make the dashboard say something of its own.
export const NOTICES: Record<string, string> = {
  cancelled: 'The piece was cancelled.',
  not_cancelled: 'The piece can no longer be cancelled: its send date or cancellation window has passed.',
  key_created: 'The key was created. Copy it now: it is not shown again.',
  key_revoked: 'The key was revoked.',
  setting_saved: 'The setting was saved.',
  mode_switched: 'Mode switched.',
};

export function noticeOf(code: string | undefined): string | undefined {
  return code !== undefined && Object.hasOwn(NOTICES, code) ? NOTICES[code] : undefined;
}
