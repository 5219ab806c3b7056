/**
 * `paycli brcode decode|qr|create` (docs/brcodes.md): one decoder and one rule set
 * (src/pix/brcode.ts), shared with the check of a cash-in's answer (src/pix/brcode-check.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { readStdinText } from '../../core/stdin.js';
import { buildStaticBrCode, decodeBrCode, LIMITS, PIX_GUI, problemText, type DecodedBrCode } from '../../pix/brcode.js';
import { isPortuguese, t } from '../../core/i18n/index.js';
import { UsageError } from '../../core/errors.js';
import { amountProblem, formatReais, MAX_CENTS, parseReais } from '../../pix/money.js';
import { logger } from '../../core/logger.js';
import { output, type Output } from '../../core/output.js';
import { sanitizeJson, sanitizeText } from '../../core/sanitize.js';
import { parsePixKeyType, pixKeyTypeHelp, PIX_KEY_TYPES } from '../../pix/pix-key-types.js';
import { checkPixKey } from '../../pix/pixkey.js';
import { binariseForQr, invertForQr, normaliseForQr, readBrCode, type QrReader } from '../../pix/qr-image.js';
import { processContext, qrColumns, type RunContext } from '../../core/terminal.js';

interface GlobalOpts {
  json?: boolean | string;
  /** false with `--no-color` (the terminal QR code then has no escape sequence). */
  color?: boolean;
}

/** Reads the code argument: the text itself, or `-` for the run's stdin (surrounding white space dropped). */
async function codeFrom(arg: string | undefined, what: string, stdin: NodeJS.ReadableStream): Promise<string> {
  if (arg === undefined) throw new UsageError(t('brcode.noCode', what), { field: 'code' });
  let text = arg;
  if (arg === '-') {
    try {
      text = await readStdinText(stdin);
    } catch (err) {
      throw new UsageError(t('brcode.stdinUnreadable', what, (err as NodeJS.ErrnoException).code ?? (err as Error).message));
    }
  }
  text = text.replace(/^[\s\uFEFF]+|\s+$/g, '');
  if (!text) throw new UsageError(t('brcode.empty', what), { field: 'code' });
  return text;
}

/** The two QR decoders: jsQR, and paulmillr's `qr` (another detector and binarizer). */
async function qrReaders(): Promise<QrReader[]> {
  // jsqr is CommonJS with `exports.default`; the bundle's namespace may wrap it once more.
  const mod = (await import('jsqr')) as unknown as { default: unknown };
  const jsQR = (typeof mod.default === 'function' ? mod.default : (mod.default as { default: unknown }).default) as typeof import('jsqr').default;
  const { decodeQR } = await import('qr/decode.js');
  return [
    (data, width, height) => jsQR(data, width, height)?.data ?? null,
    (data, width, height) => {
      try {
        return decodeQR({ width, height, data });
      } catch {
        return null; // no finder pattern, or a read its error correction could not repair
      }
    },
  ];
}

/**
 * Reads the BR Code in a PNG image. Each decoder (jsQR, then `qr`) tries the pixels as they are,
 * then flattened onto white with their contrast stretched, then binarized at one threshold, then
 * inverted (src/pix/qr-image.ts); the first read whose CRC holds is the answer. A read whose CRC
 * does not hold is a misread, not the payer's code: when no read holds, the image could not be read
 * (docs/brcodes.md "Images, ambiguous keys, field limits").
 * @returns the text it holds
 * @throws UsageError when the file cannot be read, is not a PNG, holds no QR code, or no read of it has a CRC that holds
 */
export async function readQrImage(file: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new UsageError(t('brcode.imageUnreadable', file, (err as NodeJS.ErrnoException).code ?? (err as Error).message), { field: '--image' });
  }
  const { PNG } = await import('pngjs');
  let png: { width: number; height: number; data: Buffer };
  try {
    png = PNG.sync.read(bytes);
  } catch (err) {
    throw new UsageError(t('brcode.imageNotPng', file, (err as Error).message), { field: '--image' });
  }
  const raw = new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length);
  let grey: Uint8ClampedArray | undefined;
  const variants: Array<() => Uint8ClampedArray> = [
    () => raw,
    () => (grey ??= normaliseForQr(png.data)),
    () => binariseForQr((grey ??= normaliseForQr(png.data))),
    () => invertForQr((grey ??= normaliseForQr(png.data))),
  ];
  const read = readBrCode(await qrReaders(), variants, png.width, png.height);
  if ('text' in read) return read.text;
  if (read.misreads.length === 0) throw new UsageError(t('brcode.imageNoQr', file), { field: '--image' });
  throw new UsageError(t('brcode.imageMisread', file, read.misreads.length), {
    field: '--image',
    hint: t('brcode.imageMisreadHint', sanitizeText(read.misreads[0]!, true).slice(0, 300)),
  });
}

const row = (label: string, value: string) => `${label.padEnd(isPortuguese() ? 21 : 16)}${value}`;

/** The human description of a decoded BR Code: every field by name, then every problem with its rule. */
export function describeBrCode(d: DecodedBrCode): string {
  const kind = d.kind === 'static' ? t('brcode.kind.static') : d.kind === 'dynamic' ? t('brcode.kind.dynamic') : undefined;
  const lines = [t('brcode.title', d.valid, kind)];
  if (d.kind === 'static') lines.push(row(t('brcode.label.kind'), t('brcode.kindStatic')));
  if (d.kind === 'dynamic') lines.push(row(t('brcode.label.kind'), d.url ? t('brcode.kindDynamic') : t('brcode.kindRecurrence')));
  if (d.initiation) lines.push(row(t('brcode.label.initiation'), d.initiation === '12' ? t('brcode.singleUse') : t('brcode.reusable')));
  if (d.key !== undefined) lines.push(row(t('brcode.label.key'), d.key));
  if (d.url !== undefined) lines.push(row(t('brcode.label.url'), d.url));
  if (d.recurrenceUrl !== undefined) lines.push(row(t('brcode.label.recurrenceUrl'), `${d.recurrenceUrl} (Pix Automático)`));
  if (d.merchantName !== undefined) lines.push(row(t('brcode.label.merchantName'), d.merchantName));
  if (d.merchantCity !== undefined) lines.push(row(t('brcode.label.merchantCity'), d.merchantCity));
  if (d.postalCode !== undefined) lines.push(row(t('brcode.label.postalCode'), d.postalCode));
  if (d.amountCents !== undefined) lines.push(row(t('brcode.label.amount'), `${formatReais(d.amountCents)}${d.url ? t('brcode.amountAlsoInUrl') : ''}`));
  else if (d.kind === 'dynamic') lines.push(row(t('brcode.label.amount'), t('brcode.amountInUrl')));
  else if (d.kind === 'static') lines.push(row(t('brcode.label.amount'), t('brcode.amountNone')));
  if (d.txid !== undefined) lines.push(row('Txid', d.txid === '***' ? t('brcode.txidNone') : d.txid));
  if (d.info !== undefined) lines.push(row(t('brcode.label.info'), d.info));
  if (d.merchantCategoryCode !== undefined) lines.push(row(t('brcode.label.mcc'), d.merchantCategoryCode));
  if (d.currency !== undefined) lines.push(row(t('brcode.label.currency'), d.currency === '986' ? '986 (BRL)' : d.currency));
  if (d.country !== undefined) lines.push(row(t('brcode.label.country'), d.country));
  if (d.crc !== undefined) lines.push(row('CRC', d.crc));
  for (const o of d.unknown) lines.push(row(t('brcode.label.object', o.id), t('brcode.unknownObject', o.value)));
  if (d.problems.length) {
    lines.push('', t('brcode.problems'));
    for (const p of d.problems) {
      const text = problemText(p);
      lines.push(
        `  ${t(p.severity === 'error' ? 'brcode.severity.error' : 'brcode.severity.warning')}: ${text.message}`,
        `    ${t('brcode.rule')}: ${text.ruleText} (${text.source})`,
      );
    }
  }
  return sanitizeText(lines.join('\n'));
}

/** The `--json` document of a decoded BR Code: `{brCode, valid, kind, ..., problems: [{rule, severity, message, ruleText, source}]}`. */
function decodedJson(code: string, d: DecodedBrCode): unknown {
  const { valid, kind, problems, unknown, ...fields } = d;
  return sanitizeJson({ brCode: code, valid, kind, ...fields, unknown, problems });
}

/** Ends an invalid code's run with exit 2, after its description was printed. */
function invalid(d: DecodedBrCode): UsageError {
  const errors = d.problems.filter((p) => p.severity === 'error');
  return new UsageError(t('brcode.invalid', errors.map((p) => problemText(p).message).join('; ')), {}, 'invalid_brcode');
}

/** `paycli brcode decode [code] [--image file]`. @throws UsageError (exit 2) for an invalid code */
export async function runDecode(opts: GlobalOpts & { image?: string }, { args, stdin }: RunContext): Promise<Output> {
  if (opts.image && args[0] !== undefined) throw new UsageError(t('brcode.codeAndImage'), { field: '--image' });
  const code = opts.image ? await readQrImage(opts.image) : await codeFrom(args[0], 'brcode decode', stdin);
  const d = decodeBrCode(code);
  return output(decodedJson(code, d), () => describeBrCode(d), {
    after: () => {
      if (!d.valid) throw invalid(d);
    },
  });
}

/** Writes the PNG and/or SVG of `code` (four-module quiet zone). @throws UsageError when a file cannot be written */
async function writeImages(code: string, png?: string, svg?: string): Promise<void> {
  const QRCode = (await import('qrcode')).default;
  for (const [file, type] of [
    [png, 'png'],
    [svg, 'svg'],
  ] as const) {
    if (!file) continue;
    try {
      if (type === 'png') writeFileSync(file, await QRCode.toBuffer(code, { type: 'png', margin: 4, scale: 8 }));
      else writeFileSync(file, await QRCode.toString(code, { type: 'svg', margin: 4 }));
    } catch (err) {
      throw new UsageError(t('brcode.cannotWrite', `--${type}`, file, (err as NodeJS.ErrnoException).code ?? (err as Error).message), { field: `--${type}` });
    }
    logger.notice(t('brcode.imageWritten', type.toUpperCase(), file));
  }
}

/** Draws `code` on stdout when it is a terminal wide enough; otherwise says what to do. */
async function drawInTerminal(code: string, ctx: RunContext, color?: boolean): Promise<string> {
  const { drawQr, qrInColor } = await import('../output/qr-terminal.js');
  const columns = qrColumns(ctx);
  const qr = drawQr(code, columns, { color: qrInColor(color, ctx.env) });
  if (!qr) logger.notice(t('brcode.tooNarrow', columns ?? 0));
  return qr ?? '';
}

/** `paycli brcode qr [code] [--png f] [--svg f]`. @throws UsageError for an invalid code (nothing drawn) */
export async function runQr(opts: GlobalOpts & { png?: string; svg?: string }, ctx: RunContext): Promise<Output | void> {
  const code = await codeFrom(ctx.args[0], 'brcode qr', ctx.stdin);
  const d = decodeBrCode(code);
  if (!d.valid) {
    ctx.stderr.write(`${describeBrCode(d)}\n`);
    throw invalid(d);
  }
  await writeImages(code, opts.png, opts.svg);
  if (opts.png || opts.svg) return;
  return output(decodedJson(code, d), () => drawInTerminal(code, ctx, opts.color));
}

/** Folds accents away (São → Sao) and checks printable ASCII and a length limit. @throws UsageError */
function asciiField(text: string | undefined, flag: string, max: number): string {
  if (text === undefined || text.trim() === '') throw new UsageError(t('brcode.missingFlag', flag), { field: flag });
  const folded = text
    .trim()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
  if (/[^\x20-\x7e]/.test(folded)) throw new UsageError(t('brcode.notAscii', flag, sanitizeText(text, true)), { field: flag });
  if (folded.length > max) throw new UsageError(t('brcode.tooLong', flag, folded, folded.length, max), { field: flag });
  return folded;
}

/**
 * The PIX key in DICT form: of the type `--key-type` names, else of the one type it can be. Bare
 * 11 digits that are both a valid CPF and a valid mobile number (`11987654374`) are ambiguous:
 * `--key-type` must say which (DICT key formats).
 * @throws UsageError when it is no DICT key, not one of the type named, or ambiguous
 */
function dictKey(text: string | undefined, keyType: string | undefined): string {
  if (text === undefined || text.trim() === '') throw new UsageError(t('brcode.missingFlag', '--key'), { field: '--key' });
  if (keyType !== undefined) {
    const type = parsePixKeyType(keyType, { numbers: false });
    if (type === null) throw new UsageError(t('brcode.keyTypeInvalid', sanitizeText(keyType, true), pixKeyTypeHelp()), { field: '--key-type' });
    const check = checkPixKey(type, text);
    if (!check.ok) throw new UsageError(t('brcode.keyInvalid', check.message), { field: '--key' });
    return check.key;
  }
  const fits = PIX_KEY_TYPES.map((t) => ({ t, check: checkPixKey(t.value, text) })).filter((f) => f.check.ok);
  if (fits.length > 1 && /^[0-9]{11}$/.test(text.trim())) {
    throw new UsageError(t('brcode.keyAmbiguous', sanitizeText(text.trim(), true)), { field: '--key-type' });
  }
  const first = fits[0];
  if (first?.check.ok) return first.check.key;
  throw new UsageError(t('brcode.notPixKey', sanitizeText(text, true)), { field: '--key' });
}

/** `paycli brcode create`. @throws UsageError on any invalid input (nothing created) */
export async function runCreate(
  opts: GlobalOpts & { key?: string; keyType?: string; value?: string; amount?: string; name?: string; city?: string; txid?: string; info?: string; png?: string },
  ctx: RunContext = processContext(),
): Promise<Output> {
  const key = dictKey(opts.key, opts.keyType);
  let amountCents: number | undefined;
  if (opts.value !== undefined && opts.amount !== undefined) throw new UsageError(t('brcode.valueAndAmount'), { field: '--amount' });
  if (opts.value !== undefined) {
    if (!/^[0-9]+$/.test(opts.value.trim()) || Number(opts.value) < 1 || Number(opts.value) > MAX_CENTS)
      throw new UsageError(t('brcode.valueInvalid', opts.value, MAX_CENTS), { field: '--value' });
    amountCents = Number(opts.value.trim());
  }
  if (opts.amount !== undefined) {
    const problem = amountProblem(opts.amount);
    if (problem) throw new UsageError(`--amount: ${problem}`, { field: '--amount' });
    amountCents = parseReais(opts.amount)!;
  }
  const merchantName = asciiField(opts.name, '--name', LIMITS.merchantName);
  const merchantCity = asciiField(opts.city, '--city', LIMITS.merchantCity);
  if (opts.txid !== undefined && !new RegExp(`^[A-Za-z0-9]{1,${LIMITS.txid}}$`).test(opts.txid))
    throw new UsageError(t('brcode.txidInvalid', sanitizeText(opts.txid, true), LIMITS.txid), { field: '--txid' });
  const info = opts.info === undefined ? undefined : asciiField(opts.info, '--info', LIMITS.objectValue);
  const account = 4 + PIX_GUI.length + 4 + key.length + (info ? 4 + info.length : 0);
  if (account > LIMITS.objectValue) throw new UsageError(t('brcode.infoTooLong', account, LIMITS.objectValue), { field: '--info' });
  const code = buildStaticBrCode({ key, merchantName, merchantCity, amountCents, txid: opts.txid, info });
  const d = decodeBrCode(code);
  if (!d.valid) throw invalid(d); // cannot happen for checked inputs; fail closed all the same
  if (amountCents === undefined) logger.notice(t('brcode.noAmount'));
  await writeImages(code, opts.png);
  return output(decodedJson(code, d), async () => `${code}${ctx.isTTY.stdout ? `\n\n${await drawInTerminal(code, ctx, opts.color)}` : ''}`);
}
