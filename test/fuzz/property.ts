// The fuzz property shared by the test suite's modest run and `npm run fuzz`: every generated request
// gets an acceptable answer (no 5xx, the spec's body on every error), `GET /health` answers 200 between
// any two requests, and the engine is still serving. Three phases: requests generated from the catalog,
// raw malformed HTTP, hostile multipart uploads of artwork (every hostile file intact first).
import fc from 'fast-check';
import { acceptable, fuzzRequest, rawHttp, type FuzzRequest } from './arbitraries';
import { send, sendAborted, sendRaw } from './send';
import { everyFileOnce, uploadPlan, uploadRequest, validBodies } from './uploads';
import { probeHealth } from './vitals';

export interface FuzzTarget {
  url: string;
  /** a valid Authorization header */
  auth: string;
}

export interface FuzzFigures {
  requests: number;
  raw: number;
  /** multipart uploads of artwork, the aborted ones included */
  uploads: number;
  /** uploads whose connection was dropped mid-body (no answer to count) */
  aborted: number;
  statuses: Record<string, number>;
  /** what is being sent now, for a watcher that finds the engine slow */
  inFlight: string;
}

export const noFigures = (): FuzzFigures => ({
  requests: 0,
  raw: 0,
  uploads: 0,
  aborted: 0,
  statuses: {},
  inFlight: '',
});

async function alive(target: FuzzTarget): Promise<void> {
  const answer = await send(target.url, {
    method: 'GET',
    path: '/v1/addresses?limit=1',
    headers: { authorization: target.auth },
    label: 'alive',
  });
  if (answer.status !== 200)
    throw new Error(`the engine stopped serving: ${answer.status} ${answer.failure ?? JSON.stringify(answer.body)}`);
}

async function healthy(target: FuzzTarget, after: string): Promise<void> {
  const { status } = await probeHealth(target.url);
  if (status !== 200) throw new Error(`${after}\n -> then GET /health answered ${status || 'nothing'}`);
}

async function post(target: FuzzTarget, path: string, json: unknown): Promise<Record<string, unknown>> {
  const request = {
    method: 'POST',
    path,
    headers: { authorization: target.auth, 'content-type': 'application/json' },
    body: JSON.stringify(json),
    label: `POST ${path}`,
  };
  const answer = await send(target.url, request);
  if (answer.status !== 200) throw new Error(`${request.label}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as Record<string, unknown>;
}

/** A verified test-mode bank account, for checks (their artwork sides are uploads too). */
async function bankAccount(target: FuzzTarget): Promise<string> {
  const account = await post(target, '/v1/bank_accounts', {
    routing_number: '322271627',
    account_number: '123456789',
    account_type: 'company',
    signatory: 'Jane Doe',
  });
  await post(target, `/v1/bank_accounts/${String(account.id)}/verify`, { amounts: [11, 35] });
  return String(account.id);
}

/**
 * Runs `runs` API requests, `runs / 10` raw ones, then every hostile file once on every upload operation
 * and `runs / 10` generated uploads; throws fast-check's report (with its seed) on a failure.
 */
export async function fuzz(
  target: FuzzTarget,
  options: { runs: number; seed?: number; figures?: FuzzFigures },
): Promise<void> {
  const figures = options.figures ?? noFigures();
  const count = (status: number) => (figures.statuses[status] = (figures.statuses[status] ?? 0) + 1);
  await fc.assert(
    fc.asyncProperty(fuzzRequest(target.auth), async (request) => {
      figures.inFlight = request.label;
      const answer = await send(target.url, request);
      figures.requests += 1;
      count(answer.status);
      if (answer.failure || !acceptable(answer.status, answer.body)) {
        throw new Error(
          `${request.label}\n -> ${answer.status} ${answer.failure ?? JSON.stringify(answer.body).slice(0, 300)}`,
        );
      }
      await healthy(target, request.label);
    }),
    { numRuns: options.runs, seed: options.seed, endOnFailure: true, includeErrorInReport: true },
  );
  await alive(target);
  await fc.assert(
    fc.asyncProperty(rawHttp, async (text) => {
      figures.inFlight = `raw ${JSON.stringify(text.slice(0, 200))}`;
      const answer = await sendRaw(target.url, text);
      figures.raw += 1;
      count(answer.status);
      if (answer.failure || !acceptable(answer.status, answer.body)) {
        throw new Error(
          `raw ${JSON.stringify(text.slice(0, 200))}\n -> ${answer.status} ${answer.failure ?? JSON.stringify(answer.body)}`,
        );
      }
      await healthy(target, `raw ${JSON.stringify(text.slice(0, 200))}`);
    }),
    {
      numRuns: Math.max(10, Math.floor(options.runs / 10)),
      seed: options.seed,
      endOnFailure: true,
      includeErrorInReport: true,
    },
  );
  await alive(target);
  const bodies = validBodies(await bankAccount(target));
  await fc.assert(
    fc.asyncProperty(uploadPlan, async (plan) => {
      const upload = await uploadRequest(plan, bodies);
      const request: FuzzRequest = {
        method: 'POST',
        path: upload.path,
        headers: { authorization: target.auth, 'content-type': upload.contentType },
        body: upload.body,
        label: upload.label,
      };
      figures.uploads += 1;
      figures.inFlight = upload.label;
      if (upload.abortAt !== undefined) {
        await sendAborted(target.url, request, upload.abortAt);
        figures.aborted += 1;
      } else {
        const answer = await send(target.url, request);
        count(answer.status);
        const shown = `${upload.label}\n -> ${answer.status} ${answer.failure ?? JSON.stringify(answer.body).slice(0, 300)}`;
        if (answer.failure || !acceptable(answer.status, answer.body)) throw new Error(shown);
        if (upload.mustRefuse && answer.status < 400) throw new Error(`${shown}\n (taken: it must be refused)`);
      }
      await healthy(target, upload.label);
    }),
    {
      // examples count among the runs
      numRuns: everyFileOnce.length + Math.max(10, Math.floor(options.runs / 10)),
      examples: everyFileOnce.map((plan): [typeof plan] => [plan]),
      seed: options.seed,
      endOnFailure: true,
      includeErrorInReport: true,
    },
  );
  await alive(target);
}
