import { createCanvas } from '@napi-rs/canvas';
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { RgbaImage } from '../../ocr/rgbaImage';

export interface RenderedPage {
  image: RgbaImage;
  /** Image pixels per PDF unit (1/72 in): dpi / 72, less when the pixel cap applied. */
  scale: number;
}

/**
 * Renders one page to pixels with pdf.js on a Skia canvas (@napi-rs/canvas), on white, at `dpi`;
 * a page whose size would exceed `maxPixels` at that resolution (a poster, a hostile MediaBox) is
 * rendered smaller instead, so one page's bitmap is bounded whatever the page claims.
 */
export async function renderPage(page: PDFPageProxy, dpi: number, maxPixels: number): Promise<RenderedPage> {
  const unit = page.getViewport({ scale: 1 });
  const wanted = dpi / 72;
  const scale = Math.min(wanted, Math.sqrt(maxPixels / Math.max(1, unit.width * unit.height)));
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.floor(viewport.width));
  const height = Math.max(1, Math.floor(viewport.height));
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  type RenderParameters = Parameters<PDFPageProxy['render']>[0];
  await page.render({
    canvas: canvas as unknown as RenderParameters['canvas'],
    canvasContext: context as unknown as RenderParameters['canvasContext'],
    viewport,
    background: 'rgb(255,255,255)',
  }).promise;
  const data = context.getImageData(0, 0, width, height).data;
  return { image: { width, height, data }, scale };
}
