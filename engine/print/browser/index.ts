// The browser that turns HTML artwork into PDF pages: see pool.ts.
export {
  createRenderer,
  IDLE_REASON,
  type Renderer,
  type RendererOptions,
  type RendererState,
  type RendererStatus,
  type PdfRequest,
} from './pool';
export { BrowserCrashed, RenderFailed, RendererUnavailable, RenderTimeout } from './errors';
export { locateChromium, SYSTEM_CHROMIUMS, type ChromiumChoice, type ChromiumSource, type Located } from './locate';
