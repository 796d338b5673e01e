// What `printpost serve` and `work` do with a defect that escapes every handler.

/**
 * Last line of defence: every request path turns its own failures into an answer, but a defect that
 * escapes one (a throw in a stream callback) must not end the service for everyone. It is logged and
 * the engine keeps serving; what it was doing is lost, and its database work was transactional.
 */
export function keepServingThroughDefects(logLevel: string): void {
  const report = (kind: string) => (error: unknown) => {
    if (logLevel === 'silent') return;
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(
      `${JSON.stringify({ time: new Date().toISOString(), level: 'error', kind, error: detail })}\n`,
    );
  };
  process.on('uncaughtException', report('uncaughtException'));
  process.on('unhandledRejection', report('unhandledRejection'));
}
