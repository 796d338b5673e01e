// A render that cannot succeed however often it is tried (the design times out, an asset it names is
// refused, the file is unreadable): the piece fails with this reason and the job is not retried.
import type { FailureReason } from './outcome';

export class RenderFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly remediation: string,
  ) {
    super(message);
  }

  toReason(): FailureReason {
    return { failure_reason: `${this.code}: ${this.message}`, remediation: this.remediation, errors: null };
  }
}
