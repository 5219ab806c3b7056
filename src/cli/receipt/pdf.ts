/**
 * A laid-out receipt (./layout.ts) as PDF bytes, drawn by pdfkit with the DejaVu Sans fonts
 * embedded (subsets). Deterministic: the same page gives the same bytes. pdfkit writes a creation
 * date and derives the file id from it; the date is left out of the document and the id comes
 * from the page's content instead (docs/receipts-and-statements.md "Same bytes every time").
 */
import { createHash } from 'node:crypto';
import PDFDocument from 'pdfkit';
import { fontFiles, type Page } from './layout.js';

/** Renders `page` as a PDF (one page of the page's size). */
export async function renderPdf(page: Page): Promise<Buffer> {
  const files = fontFiles();
  // The file id is pdfkit's hash of its info, whose CreationDate is set from the content here.
  const digest = createHash('sha256').update(JSON.stringify(page)).digest();
  const stamp = new Date(Date.UTC(2000, 0, 1) + (digest.readUInt32BE(0) % 86_400_000));
  const doc = new PDFDocument({
    size: [page.width, page.height],
    margin: 0,
    font: files.regular,
    compress: true,
    info: { Title: page.title, Producer: 'paycli', Creator: 'paycli', CreationDate: stamp },
  });
  delete (doc.info as { CreationDate?: Date }).CreationDate;
  // PDF 1.3 (pdfkit's default) has no XMP metadata stream, but pdfkit still builds its text from the date.
  (doc as unknown as { _addInfo: () => void })._addInfo = () => undefined;
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  for (const op of page.ops) {
    if (op.op === 'rect') doc.rect(op.x, op.y, op.w, op.h).fill(op.color);
    else if (op.op === 'rects') {
      for (const [x, y, w, h] of op.rects) doc.rect(x, y, w, h);
      doc.fill(op.color);
    } else
      doc
        .font(op.bold ? files.bold : files.regular)
        .fontSize(op.size)
        .fillColor(op.color)
        .text(op.text, op.x, op.y, { lineBreak: false });
  }
  doc.end();
  return done;
}
