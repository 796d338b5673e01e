// The first lines of an upload's row report (each row's outcome and why), once its file is in: shown on
// the audience step and on the campaign's review.
import { isPlainObject } from '../../../base/records';
import { uploads } from '../../../catalog/audience-uploads';
import { reportPage } from '../../../domain/audiences/report';
import type { DashboardRequest } from '../page';

/** Lines of the row report shown on a page. */
const REPORT_LINES = 20;

export async function rowReport({ services, scope }: DashboardRequest, shownUpload: unknown) {
  if (!isPlainObject(shownUpload) || typeof shownUpload.id !== 'string') return undefined;
  const upload = await services.objects.get(scope, uploads.name, shownUpload.id);
  if (!upload || typeof upload.file_key !== 'string') return undefined;
  const page = await reportPage(services, scope, upload, { limit: REPORT_LINES, offset: 0 });
  return {
    total: page.total_count,
    lines: page.data.map((line) => ({ ...line, data: JSON.stringify(line.originalData) })),
  };
}
