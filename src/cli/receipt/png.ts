/**
 * A laid-out receipt (./layout.ts) as PNG bytes: written as SVG with the positions of the layout
 * and rasterised by resvg (`@resvg/resvg-js`, a prebuilt binary shipped in its npm package) with
 * only the DejaVu Sans fonts the PDF embeds, never the machine's: the same page gives the same
 * pixels anywhere. Two pixels per point (an A4 page is 1191 px wide, an 80 mm roll 454 px).
 */
import { createRequire } from 'node:module';
import { ascent, fontFiles, type Page } from './layout.js';

/** Pixels per point of the PNG. */
export const PNG_SCALE = 2;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const n = (v: number) => String(Math.round(v * 100) / 100);

/** The page as an SVG document (points as user units; text on its baseline). */
export function pageSvg(page: Page): string {
  const body = page.ops.map((op) =>
    op.op === 'rect'
      ? `<rect x="${n(op.x)}" y="${n(op.y)}" width="${n(op.w)}" height="${n(op.h)}" fill="${op.color}"/>`
      : op.op === 'rects'
        ? `<path shape-rendering="crispEdges" fill="${op.color}" d="${op.rects.map(([x, y, w, h]) => `M${n(x)} ${n(y)}h${n(w)}v${n(h)}h${n(-w)}z`).join('')}"/>`
        : `<text x="${n(op.x)}" y="${n(op.y + ascent(op.size, op.bold))}" font-size="${n(op.size)}"${op.bold ? ' font-weight="bold"' : ''} fill="${op.color}" xml:space="preserve">${esc(op.text)}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${n(page.width)}" height="${n(page.height)}" viewBox="0 0 ${n(page.width)} ${n(page.height)}" font-family="DejaVu Sans"><rect width="100%" height="100%" fill="#ffffff"/>${body.join('')}</svg>`;
}

/** Renders `page` as a PNG. */
export async function renderPng(page: Page): Promise<Buffer> {
  // required from the installed package (not bundled): it loads the prebuilt binary of this platform
  const { Resvg } = createRequire(__filename)('@resvg/resvg-js') as typeof import('@resvg/resvg-js');
  const files = fontFiles();
  const resvg = new Resvg(pageSvg(page), {
    fitTo: { mode: 'zoom', value: PNG_SCALE },
    font: { fontFiles: [files.regular, files.bold], loadSystemFonts: false, defaultFontFamily: 'DejaVu Sans' },
    background: '#ffffff',
  });
  return Buffer.from(resvg.render().asPng());
}
