/**
 * The page of a receipt (docs/receipts-and-statements.md "Receipts"), laid out once in points and
 * drawn by two renderers: PDF (./pdf.ts, pdfkit) and PNG (./png.ts, an SVG rasterised by resvg).
 * Text is measured with fontkit on the DejaVu Sans fonts of the `dejavu-fonts-ttf` package, the
 * same files both renderers embed, so the output does not depend on the machine's fonts.
 * Paper: A4 (595 × 842 pt, labels beside values) or an 80 mm thermal roll (227 pt wide, 72 mm
 * printed, labels above values, as long as the content).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import QRCode from 'qrcode';
import { isPortuguese, t } from '../../core/i18n/index.js';
import { formatLocalTime, localTimeZone } from '../../core/local-time.js';
import { VERSION } from '../../core/version.js';
import { formatReais } from '../../pix/money.js';
import type { Receipt, ReceiptParty } from '../../payment/receipt.js';

/** Paper sizes of `--paper`. */
export const PAPERS = ['a4', '80mm'] as const;
export type Paper = (typeof PAPERS)[number];

/** A drawing operation, in points from the page's top-left corner; a text's `y` is the top of its line. */
export type Op =
  | { op: 'text'; x: number; y: number; size: number; bold: boolean; text: string; color: string }
  | { op: 'rect'; x: number; y: number; w: number; h: number; color: string }
  /** Many rectangles filled as one shape (a QR code: no seams between its modules). */
  | { op: 'rects'; rects: [x: number, y: number, w: number, h: number][]; color: string };

/** A laid-out page. */
export interface Page {
  width: number;
  height: number;
  ops: Op[];
  /** Title of the document (PDF metadata). */
  title: string;
}

/** Paths of the two fonts, in the installed `dejavu-fonts-ttf` package. */
export function fontFiles(): { regular: string; bold: string } {
  const req = createRequire(__filename);
  return { regular: req.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'), bold: req.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf') };
}

let fonts: { regular: fontkit.Font; bold: fontkit.Font } | undefined;
function loaded(): { regular: fontkit.Font; bold: fontkit.Font } {
  const files = fontFiles();
  fonts ??= { regular: fontkit.create(readFileSync(files.regular)) as fontkit.Font, bold: fontkit.create(readFileSync(files.bold)) as fontkit.Font };
  return fonts;
}

/** Width of a text in points at `size`, as the renderers draw it. */
export function textWidth(text: string, size: number, bold = false): number {
  const f = bold ? loaded().bold : loaded().regular;
  return (f.layout(text).advanceWidth * size) / f.unitsPerEm;
}

/** Distance from a line's top to its baseline, in points (pdfkit places text this way). */
export function ascent(size: number, bold = false): number {
  const f = bold ? loaded().bold : loaded().regular;
  return (f.ascent * size) / f.unitsPerEm;
}

/** Splits a text into lines no wider than `width`: at spaces, and inside a word that alone is too wide; with `anywhere`, at any character (a BR Code). */
export function wrap(text: string, width: number, size: number, bold = false, anywhere = false): string[] {
  if (anywhere) return wrap(text.replace(/ /g, '\u00a0'), width, size, bold).map((l) => l.replace(/\u00a0/g, ' '));
  const lines: string[] = [];
  let line = '';
  const push = (word: string) => {
    const joined = line ? `${line} ${word}` : word;
    if (textWidth(joined, size, bold) <= width) return void (line = joined);
    if (line) lines.push(line);
    line = '';
    let chunk = '';
    for (const ch of word) {
      if (chunk && textWidth(chunk + ch, size, bold) > width) {
        lines.push(chunk);
        chunk = '';
      }
      chunk += ch;
    }
    line = chunk;
  };
  for (const word of text.split(/ +/)) push(word);
  if (line || !lines.length) lines.push(line);
  return lines;
}

interface Geometry {
  width: number;
  margin: number;
  /** Width of the label column; 0: labels above their values. */
  labelWidth: number;
  size: number;
  title: number;
  amount: number;
  qr: number;
  fixedHeight?: number;
}

const GEOMETRY: Record<Paper, Geometry> = {
  a4: { width: 595.28, margin: 56, labelWidth: 170, size: 10, title: 18, amount: 24, qr: 150, fixedHeight: 841.89 },
  // 80 mm roll, 72 mm printable (204 pt): 11.3 pt margins
  '80mm': { width: 226.77, margin: 11.3, labelWidth: 0, size: 8, title: 11, amount: 16, qr: 130 },
};

const INK = '#000000';
const GREY = '#555555';
const RULE = '#999999';

/** The label/value rows of one side of the payment. */
function partyRows(p: ReceiptParty): [string, string | undefined][] {
  return [
    [t('receipt.label.name'), p.name],
    [t('receipt.label.document'), p.document],
    [t('receipt.label.pixKey'), p.pixKey && (p.pixKeyType ? `${p.pixKey} (${t(`receipt.keyType.${p.pixKeyType}` as 'receipt.keyType.cpf')})` : p.pixKey)],
    [t('receipt.label.institution'), p.institution],
    [t('receipt.label.account'), p.account && t('receipt.account', p.account.gateway, p.account.profile)],
  ];
}

/** The sections of a receipt: a heading (or none) and its label/value rows (rows without a value are left out). */
export function sections(r: Receipt, timeZone = localTimeZone()): { heading?: string; rows: [string, string][] }[] {
  const pt = isPortuguese();
  const keep = (rows: [string, string | undefined][]) => rows.filter((row): row is [string, string] => row[1] !== undefined && row[1] !== '');
  return [
    {
      rows: keep([
        [t('receipt.label.time'), formatLocalTime(r.time, { portuguese: pt, timeZone })],
        [t('receipt.label.type'), r.kind === 'cashout' ? t('receipt.type.cashout') : t('receipt.type.cashin')],
        [t('receipt.label.status'), t(`receipt.status`, r.status)],
      ]),
    },
    { heading: t('receipt.heading.payer'), rows: keep(partyRows(r.payer)) },
    { heading: t('receipt.heading.recipient'), rows: keep(partyRows(r.recipient)) },
    {
      heading: t('receipt.heading.transaction'),
      rows: keep([
        [t('receipt.label.endToEndId'), r.endToEndId],
        [t('receipt.label.transactionId'), r.transactionId],
        [t('receipt.label.orderId'), r.orderId],
        [t('receipt.label.externalId'), r.externalId],
        [t('receipt.label.product'), r.product],
        [t('receipt.label.fee'), r.fee !== undefined ? formatReais(r.fee) : undefined],
        [t('receipt.label.net'), r.net !== undefined ? formatReais(r.net) : undefined],
        [t('receipt.label.gateway'), r.gateway],
        [t('receipt.label.profile'), r.profile],
        [t('receipt.label.entry'), String(r.entry)],
      ]),
    },
  ];
}

/**
 * Lays out a receipt on `paper`, in the language in use, times in `timeZone` (the local zone by
 * default) with their offset.
 */
export function layoutReceipt(r: Receipt, paper: Paper, timeZone = localTimeZone()): Page {
  const g = GEOMETRY[paper];
  const ops: Op[] = [];
  const inner = g.width - 2 * g.margin;
  const line = (size: number) => size * 1.35;
  let y = g.margin;
  const text = (s: string, x: number, size: number, bold = false, color = INK) => ops.push({ op: 'text', x, y, size, bold, text: s, color });
  const rule = () => {
    ops.push({ op: 'rect', x: g.margin, y, w: inner, h: 0.6, color: RULE });
    y += g.size;
  };
  const title = r.kind === 'cashout' ? t('receipt.title.cashout') : t('receipt.title.cashin');
  for (const l of wrap(title, inner, g.title, true)) {
    text(l, g.margin, g.title, true);
    y += line(g.title);
  }
  if (r.sandbox) {
    const lines = wrap(t('receipt.sandbox'), inner - 8, g.size, true);
    ops.push({ op: 'rect', x: g.margin, y, w: inner, h: lines.length * line(g.size) + 6, color: '#ffd8a8' });
    y += 3;
    for (const l of lines) {
      text(l, g.margin + 4, g.size, true);
      y += line(g.size);
    }
    y += 3 + g.size / 2;
  }
  text(t('receipt.label.amount'), g.margin, g.size, false, GREY);
  y += line(g.size);
  text(formatReais(r.value), g.margin, g.amount, true);
  y += line(g.amount) + g.size / 2;
  rule();
  for (const s of sections(r, timeZone)) {
    if (!s.rows.length) continue;
    if (s.heading) {
      text(s.heading, g.margin, g.size + 1, true);
      y += line(g.size + 1);
    }
    for (const [label, value] of s.rows) {
      const valueX = g.margin + g.labelWidth;
      if (g.labelWidth) text(label, g.margin, g.size, false, GREY);
      else {
        text(label, g.margin, g.size, false, GREY);
        y += line(g.size);
      }
      for (const l of wrap(value, inner - g.labelWidth, g.size)) {
        text(l, valueX, g.size);
        y += line(g.size);
      }
    }
    y += g.size / 2;
    rule();
  }
  if (r.brCode) y = brCodeBlock(r.brCode, ops, g, y, inner, line);
  for (const l of wrap(t('receipt.footer', VERSION), inner, g.size - 1)) {
    text(l, g.margin, g.size - 1, false, GREY);
    y += line(g.size - 1);
  }
  return { width: g.width, height: g.fixedHeight ?? Math.ceil(y + g.margin), ops, title };
}

/** The BR Code as text and as a QR code (four modules of quiet zone, as the QR standard asks); returns the new `y`. */
function brCodeBlock(code: string, ops: Op[], g: Geometry, y0: number, inner: number, line: (size: number) => number): number {
  let y = y0;
  ops.push({ op: 'text', x: g.margin, y, size: g.size + 1, bold: true, text: t('receipt.heading.brCode'), color: INK });
  y += line(g.size + 1);
  const qr = QRCode.create(code, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const module = g.qr / (n + 8);
  const left = g.margin + 4 * module;
  y += 4 * module;
  const rects: [number, number, number, number][] = [];
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; ) {
      if (!qr.modules.get(row, col)) {
        col++;
        continue;
      }
      let end = col;
      while (end < n && qr.modules.get(row, end)) end++;
      rects.push([left + col * module, y + row * module, (end - col) * module, module]);
      col = end;
    }
  }
  ops.push({ op: 'rects', rects, color: INK });
  y += (n + 4) * module;
  for (const l of wrap(code, inner, g.size - 1, false, true)) {
    ops.push({ op: 'text', x: g.margin, y, size: g.size - 1, bold: false, text: l, color: INK });
    y += line(g.size - 1);
  }
  return y + g.size;
}
