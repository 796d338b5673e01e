// Why a render did not produce a PDF. The job runner decides from the class: a timeout or an unusable
// design fails the piece, a crashed browser retries the job once the pool has relaunched it.

/** The page took longer than its time limit; the page was killed and replaced. */
export class RenderTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the artwork took longer than ${timeoutMs} ms to render`);
    this.name = 'RenderTimeout';
  }
}

/** The browser or the page's renderer process died; the render can be retried. */
export class BrowserCrashed extends Error {
  constructor(message = 'the browser rendering the artwork crashed') {
    super(message);
    this.name = 'BrowserCrashed';
  }
}

/** No Chromium could be found or started; `reason` says why (for the piece's failure_reason). */
export class RendererUnavailable extends Error {
  constructor(readonly reason: string) {
    super(`no browser is available to render artwork: ${reason}`);
    this.name = 'RendererUnavailable';
  }
}

/** The browser refused the document (a printing error, a sheet size it would not keep). */
export class RenderFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RenderFailed';
  }
}
