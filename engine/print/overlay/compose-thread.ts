// A compose thread: composes the pieces it is sent and posts their PDFs back (see compose-threads.ts).
import { parentPort } from 'node:worker_threads';
import { composePiece, type ComposeInput } from './compose';
import { messageOf } from '../../base/thrown';

export interface ComposeJob {
  id: number;
  input: ComposeInput;
}

parentPort?.on('message', (job: ComposeJob) => {
  composePiece(job.input).then(
    (pdf) => parentPort?.postMessage({ id: job.id, pdf }, pdf.buffer instanceof ArrayBuffer ? [pdf.buffer] : []),
    (error: unknown) => parentPort?.postMessage({ id: job.id, error: messageOf(error) }),
  );
});
