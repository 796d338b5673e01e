// The fuzz property shared by the test suite's modest run and `npm run fuzz`: every generated request
// gets an acceptable answer (no 5xx, the spec's body on every error) and the engine is still serving.
import fc from 'fast-check';
import { acceptable, fuzzRequest, rawHttp } from './arbitraries';
import { send, sendRaw } from './send';

export interface FuzzTarget {
  url: string;
  /** a valid Authorization header */
  auth: string;
}

export interface FuzzFigures {
  requests: number;
  raw: number;
  statuses: Record<string, number>;
}

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

/** Runs `runs` API requests and `runs / 10` raw ones; throws fast-check's report (with its seed) on a failure. */
export async function fuzz(
  target: FuzzTarget,
  options: { runs: number; seed?: number; figures?: FuzzFigures },
): Promise<void> {
  const figures = options.figures ?? { requests: 0, raw: 0, statuses: {} };
  const count = (status: number) => (figures.statuses[status] = (figures.statuses[status] ?? 0) + 1);
  await fc.assert(
    fc.asyncProperty(fuzzRequest(target.auth), async (request) => {
      const answer = await send(target.url, request);
      figures.requests += 1;
      count(answer.status);
      if (answer.failure || !acceptable(answer.status, answer.body)) {
        throw new Error(
          `${request.label}\n -> ${answer.status} ${answer.failure ?? JSON.stringify(answer.body).slice(0, 300)}`,
        );
      }
    }),
    { numRuns: options.runs, seed: options.seed, endOnFailure: true },
  );
  await alive(target);
  await fc.assert(
    fc.asyncProperty(rawHttp, async (text) => {
      const answer = await sendRaw(target.url, text);
      figures.raw += 1;
      count(answer.status);
      if (answer.failure || !acceptable(answer.status, answer.body)) {
        throw new Error(
          `raw ${JSON.stringify(text.slice(0, 200))}\n -> ${answer.status} ${answer.failure ?? JSON.stringify(answer.body)}`,
        );
      }
    }),
    { numRuns: Math.max(10, Math.floor(options.runs / 10)), seed: options.seed, endOnFailure: true },
  );
  await alive(target);
}
