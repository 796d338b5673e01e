// The merge thread: merges the HTML it is sent and posts the result back (see index.ts, which runs it).
import { parentPort } from 'node:worker_threads';
import { mergeHtml } from './merge-html';
import { messageOf } from '../../base/thrown';

export interface MergeJob {
  id: number;
  html: string;
  variables: Record<string, unknown>;
  cacheKey?: string;
  text?: boolean;
}

parentPort?.on('message', (job: MergeJob) => {
  try {
    parentPort?.postMessage({ id: job.id, html: mergeHtml(job.html, job.variables, job.cacheKey, job.text) });
  } catch (error) {
    parentPort?.postMessage({ id: job.id, error: messageOf(error).split('\n')[0] });
  }
});
