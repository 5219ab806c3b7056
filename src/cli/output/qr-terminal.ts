/**
 * The QR code drawn in the terminal: two modules per character row (half blocks), dark modules
 * black on a white background whatever the terminal's theme, and the four-module quiet zone the
 * QR code standard (ISO/IEC 18004) asks for around the symbol. Without colour (`NO_COLOR`,
 * `--no-color`, `TERM=dumb`) no escape sequence is written: the light modules and the quiet zone are
 * drawn as blocks in the terminal's text colour, right on a dark background and inverted on a light
 * one (README "Configuration in brief": colours).
 */
import QRCode from 'qrcode';

/** Modules of light margin on each side (ISO/IEC 18004 quiet zone). */
export const QUIET_ZONE = 4;

const WHITE_BG_BLACK_FG = '\x1b[47m\x1b[30m';
const RESET = '\x1b[0m';

/**
 * Whether the terminal QR code is drawn in colour: not `--no-color` (`color` false), no `NO_COLOR`
 * (any non-empty value, https://no-color.org), not `TERM=dumb`.
 */
export function qrInColor(color: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  return color !== false && (env.NO_COLOR ?? '') === '' && env.TERM !== 'dumb';
}

/** Columns the drawing of `text` takes: one per module, quiet zone included. */
export function qrColumns(text: string): number {
  return QRCode.create(text, { errorCorrectionLevel: 'M' }).modules.size + 2 * QUIET_ZONE;
}

/**
 * Draws `text` as a QR code for a terminal `columns` wide (undefined: no limit).
 * @returns the drawing (lines end with `\n`), or `null` when the terminal is narrower than the
 *   code: a wrapped drawing decodes to nothing, so none is drawn
 */
export function drawQr(text: string, columns?: number, opts: { color?: boolean } = {}): string | null {
  const color = opts.color ?? true;
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = modules.size;
  const width = size + 2 * QUIET_ZONE;
  if (columns !== undefined && columns > 0 && columns < width) return null;
  const dark = (x: number, y: number) => x >= 0 && y >= 0 && x < size && y < size && Boolean(modules.get(y, x));
  const lines: string[] = [];
  for (let y = -QUIET_ZONE; y < size + QUIET_ZONE; y += 2) {
    let line = '';
    for (let x = -QUIET_ZONE; x < size + QUIET_ZONE; x++) {
      // with colour, dark modules are blocks on white; without, light modules are blocks (text colour)
      const top = y < size + QUIET_ZONE && dark(x, y) === color;
      const bottom = y + 1 < size + QUIET_ZONE && dark(x, y + 1) === color;
      line += top && bottom ? '█' : top ? '▀' : bottom ? '▄' : ' ';
    }
    lines.push(color ? `${WHITE_BG_BLACK_FG}${line}${RESET}` : line);
  }
  return `${lines.join('\n')}\n`;
}
