// A thumbnail thread: renders the PDFs it is sent and posts the PNGs back (see threads.ts).
import { parentPort } from 'node:worker_threads';
import { renderThumbnails } from './render';
import { messageOf } from '../../base/thrown';

export interface ThumbnailJob {
  id: number;
  pdf: Uint8Array;
}

parentPort?.on('message', (job: ThumbnailJob) => {
  renderThumbnails(job.pdf).then(
    (pages) => parentPort?.postMessage({ id: job.id, pages }),
    (error: unknown) => parentPort?.postMessage({ id: job.id, error: messageOf(error) }),
  );
});
parentPort?.postMessage({ ready: true });
