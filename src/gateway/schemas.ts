/**
 * The zod schemas of every body in the gateway interface (docs/gateway-contract.md §2), shared by
 * the flags/prompts/`--input` path, the HTTP client (which validates every response) and the
 * built-in sandbox (which validates every request).
 *
 * Request schemas validate *and normalise*: documents are sent bare, PIX keys in DICT form,
 * phones as digits with DDD, strings trimmed. Their output is exactly the JSON body sent.
 * Response schemas are loose: unknown fields (`success`, `orderId`, `txId`... seen on real
 * gateways, docs/gateway-contract.md §4) are kept and passed through, known fields must have the interface's type.
 *
 * Where the interface says "not shown" (§2.6, §8) the bounds chosen here are documented in
 * docs/cash-in-and-cash-out.md ("Validation rules"): amounts 1..{@link MAX_CENTS} cents; names ≤ {@link MAX_NAME}
 * characters; descriptions ≤ {@link MAX_DESCRIPTION}; URLs absolute http(s) ≤ 2048.
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

import { formatReais, MAX_CENTS } from '../pix/money.js';
import { pixKeyTypeHelp } from '../pix/pix-key-types.js';
import { bareDocument, documentProblem, emailProblem, normalisePhone, phoneProblem, replacementProblem, textProblem } from '../pix/validators.js';
import { checkPixKey, PIX_KEY_TYPES, type PixKeyTypeValue } from '../pix/pixkey.js';
import { orderIdProblem } from './order-id.js';
import { isHttpUrl } from './net.js';
import { REQUIRED } from './fields.js';
import { CASH_OUT_STATUS_LIST, CENTS_STRING, MAX_DESCRIPTION, MAX_NAME, MAX_URL, PIX_KEY_TYPE_LIST } from './accepted.js';
import { t } from '../core/i18n/index.js';

// zod compiles a parser for each object schema with `new Function` on its first use, which pays
// off over many parses; a single payment parses a body or two, the compiled code is not in the
// code cache, and it cost ~3 ms of a cash-out. A batch of 10,000 rows runs as fast either way
// (docs/speed.md).
// zod/mini (not the classic API): a schema is built without the ~40 methods classic zod attaches
// to every object, and the bundle carries only the schema kinds used here. Its messages are the
// English ones classic zod gives (the default locale is not loaded by zod/mini by itself).
z.config({ jitless: true, ...en() });

export { MAX_NAME, MAX_DESCRIPTION, MAX_URL } from './accepted.js';

/**
 * A schema built on its first use, then kept: zod builds a schema object by object, and every
 * command would otherwise pay at start-up for the schemas of the others (docs/speed.md).
 * @returns a function giving the one schema `build` makes
 */
const builtOnUse = <T>(build: () => T): (() => T) => {
  let schema: T | undefined;
  return () => (schema ??= build());
};

/** Message for a missing or wrongly-typed field; `what` says what it must be. */
const typed = (what: () => string) => ({
  error: (iss: { input?: unknown }) => (iss.input === undefined ? REQUIRED : t('schema.mustBe', what())),
});

/**
 * A positive integer amount in cents, 1..{@link MAX_CENTS} (interface §2: "integer ... in cents").
 * One message per mistake; each shows a valid example.
 */
export const centsSchema = z.number(typed(() => t('schema.what.cents'))).check((ctx) => {
  const v = ctx.value;
  const fail = (message: string) => ctx.issues.push({ code: 'custom', input: v, message });
  if (!Number.isInteger(v)) fail(t('schema.centsFraction', v));
  else if (v < 1) fail(t('schema.centsMin', v));
  else if (v > MAX_CENTS) fail(t('schema.centsMax', MAX_CENTS, v));
});

const text = (max: number, example: string) =>
  z.string(typed(() => t('schema.what.text', example))).check(
    z.trim(),
    z.minLength(1, { error: () => t('schema.notEmpty', example) }),
    z.maxLength(max, { error: (iss) => t('schema.tooLong', String(iss.input).length, max, example) }),
    // Controls, bidi controls, zero-width characters and line separators (src/pix/contact.ts).
    (ctx) => {
      const problem = textProblem(ctx.value);
      if (problem) ctx.issues.push({ code: 'custom', input: ctx.value, message: `${problem}, ${t('schema.eg', `"${example}"`)}` });
    },
  );

const emailSchema = z.string(typed(() => t('schema.what.email'))).check(z.trim(), (ctx) => {
  const problem = emailProblem(ctx.value);
  if (problem) ctx.issues.push({ code: 'custom', input: ctx.value, message: `${problem}${/^(is not|não é)/.test(problem) ? ',' : ';'} ${t('schema.eg', 'fulano@example.com')}` });
});

const phoneSchema = z.pipe(
  z.string(typed(() => t('schema.what.phone'))),
  z.transform((v: string, ctx) => {
    const problem = phoneProblem(v);
    if (problem !== null) {
      ctx.issues.push({ code: 'custom', input: v, message: `${problem}; ${t('schema.phoneExample')}` });
      return z.NEVER;
    }
    return normalisePhone(v)!;
  }),
);

const cpfCnpjSchema = z.pipe(
  z.string(typed(() => t('schema.what.document'))),
  z.transform((v: string, ctx) => {
    const problem = documentProblem(v);
    if (problem !== null) {
      ctx.issues.push({ code: 'custom', input: v, message: `${problem}; ${t('schema.documentExample')}` });
      return z.NEVER;
    }
    return bareDocument(v);
  }),
);

const urlSchema = z
  .string(typed(() => t('schema.what.url')))
  .check(z.trim(), z.maxLength(MAX_URL, { error: () => t('schema.urlLong', MAX_URL) }), z.refine(isHttpUrl, { error: () => t('schema.urlNotHttp') }), (ctx) => {
    const problem = replacementProblem(ctx.value);
    if (problem) ctx.issues.push({ code: 'custom', input: ctx.value, message: problem });
  });

/**
 * `orderId`, the caller's order reference (beyond the interface: docs/order-references.md "Beyond the interface"),
 * trimmed; rules in src/gateway/order-id.ts.
 */
export const orderIdSchema = z.string(typed(() => t('schema.what.text', 'pedido-1234'))).check(z.trim(), (ctx) => {
  const problem = orderIdProblem(ctx.value);
  if (problem) ctx.issues.push({ code: 'custom', input: ctx.value, message: problem });
});

/** A split entry (interface §2.1): which client receives part of the amount, and how much. */
export const splitSchema = z.object({
  clientId: z.guid(typed(() => t('schema.what.uuid'))),
  value: centsSchema,
});

/**
 * Cash-in request body (interface §2.1), normalised. Splits: unique clientIds, sum ≤ value.
 * Built on first use ({@link builtOnUse}).
 */
export const cashInRequestSchema = builtOnUse(() =>
  z
    .object({
      payerName: text(MAX_NAME, 'Fulano de Tal'),
      payerDocument: cpfCnpjSchema,
      payerEmail: emailSchema,
      payerPhone: phoneSchema,
      productName: text(MAX_NAME, 'Camiseta'),
      productDescription: text(MAX_DESCRIPTION, 'Camiseta azul, tamanho M'),
      value: centsSchema,
      postbackUrl: z.optional(urlSchema),
      splits: z.optional(
        z.array(
          splitSchema,
          typed(() => t('schema.what.splits')),
        ),
      ),
      orderId: z.optional(orderIdSchema),
    })
    // Runs even when other fields are wrong (`when`), so that every problem is reported at once.
    .check(
      z.superRefine(
        (body, ctx) => {
          const splits = body.splits as unknown[];
          const seen = new Set<string>();
          let sum = 0;
          let sumKnown = true;
          splits.forEach((s, i) => {
            const { clientId, value } = (s ?? {}) as { clientId?: unknown; value?: unknown };
            if (typeof clientId === 'string') {
              const id = clientId.toLowerCase();
              if (seen.has(id)) ctx.addIssue({ code: 'custom', input: clientId, path: ['splits', i, 'clientId'], message: t('schema.splitTwice', clientId) });
              seen.add(id);
            }
            if (typeof value === 'number' && Number.isInteger(value)) sum += value;
            else sumKnown = false;
          });
          const value = body.value as unknown;
          if (sumKnown && typeof value === 'number' && Number.isInteger(value) && value > 0 && sum > value) {
            ctx.addIssue({ code: 'custom', input: splits, path: ['splits'], message: t('schema.splitSum', sum, formatReais(sum), value, formatReais(value)) });
          }
        },
        { when: (payload) => Array.isArray((payload.value as { splits?: unknown } | undefined)?.splits) },
      ),
    ),
);
export type CashInRequest = z.output<ReturnType<typeof cashInRequestSchema>>;
export type CashInInput = z.input<ReturnType<typeof cashInRequestSchema>>;

/** Cash-in response body (interface §2.2, HTTP 200). Unknown fields are kept. Built on first use. */
export const cashInResponseSchema = builtOnUse(() =>
  z.looseObject({
    transactionId: z.int(),
    externalId: z.guid(),
    qrCode: z.string().check(z.minLength(1)),
    qrCodeBase64: z.string().check(z.minLength(1)),
  }),
);
export type CashInResponse = z.output<ReturnType<typeof cashInResponseSchema>>;

/** `pixKeyType` (interface §2.3): 0 CPF, 1 CNPJ, 2 EMAIL, 3 TELEFONE, 4 RANDOM_KEY. */
export const pixKeyTypeSchema = z.literal(PIX_KEY_TYPE_LIST, {
  error: (iss) => (iss.input === undefined ? REQUIRED : t('schema.pixKeyType', pixKeyTypeHelp(), JSON.stringify(iss.input))),
});

/** Cash-out request body (interface §2.3), normalised; `pixKey` is checked against `pixKeyType`. */
export const cashOutRequestSchema = z.pipe(
  z
    .object({
      value: centsSchema,
      pixKeyType: pixKeyTypeSchema,
      pixKey: z.string(typed(() => t('schema.what.pixKey'))).check(z.trim(), z.minLength(1, { error: () => t('schema.pixKeyEmpty') })),
      cpfCnpj: z.optional(cpfCnpjSchema),
      person: z.object(
        {
          name: text(MAX_NAME, 'Fulano de Tal'),
          email: emailSchema,
          phone: phoneSchema,
        },
        typed(() => t('schema.what.person')),
      ),
      // Beyond the interface (docs/order-references.md "Beyond the interface"): the gateway family's cash-out takes both.
      orderId: z.optional(orderIdSchema),
      postbackUrl: z.optional(urlSchema),
    })
    // The key is checked against its type even when other fields are wrong (`when`), so that every
    // problem is reported at once; the transform then writes it in DICT form.
    .check(
      z.superRefine(
        (body, ctx) => {
          const check = checkPixKey(body.pixKeyType as PixKeyTypeValue, body.pixKey);
          if (!check.ok) ctx.addIssue({ code: 'custom', input: body.pixKey, path: ['pixKey'], message: check.message });
        },
        {
          when: (payload) => {
            const v = payload.value as { pixKeyType?: unknown; pixKey?: unknown } | undefined;
            return typeof v?.pixKeyType === 'number' && v.pixKeyType in PIX_KEY_TYPES && typeof v.pixKey === 'string' && v.pixKey.trim() !== '';
          },
        },
      ),
    ),
  z.transform((body) => {
    const check = checkPixKey(body.pixKeyType as PixKeyTypeValue, body.pixKey);
    return { ...body, pixKey: check.ok ? check.key : body.pixKey };
  }),
);
export type CashOutRequest = z.output<typeof cashOutRequestSchema>;
export type CashOutInput = z.input<typeof cashOutRequestSchema>;

/** Cash-out `status` (interface §3): a digit string. */
export const cashOutStatusSchema = z.enum(CASH_OUT_STATUS_LIST);
export { CASH_OUT_STATUS_NAMES, statusWord } from './status-words.js';

/** A string holding an integer number of cents (`tax`, `liquid`, interface §2.4). */
const centsString = z.string().check(z.regex(CENTS_STRING, { error: 'must be a string holding an integer number of cents' }));

/** Cash-out response body (interface §2.4, HTTP 200). Unknown fields are kept. */
export const cashOutResponseSchema = z.looseObject({
  transactionId: z.int(),
  gross: z.int(),
  tax: centsString,
  liquid: centsString,
  status: cashOutStatusSchema,
  createdAt: z.iso.datetime({ error: 'must be an ISO 8601 UTC time ending in Z' }),
});
export type CashOutResponse = z.output<typeof cashOutResponseSchema>;

/** Error body (interface §2.5). */
export const errorBodySchema = z.looseObject({ message: z.string() });

/** One problem found by a schema: the interface field path and what is wrong with it. */
export interface FieldProblem {
  /** Interface path, e.g. `payerDocument`, `person.email`, `splits.0.clientId`. */
  path: string;
  /** What is wrong, without the field name, e.g. `is required`. */
  message: string;
}

/** Flattens a zod error into {@link FieldProblem}s, in schema order. */
export function problemsOf(error: z.core.$ZodError): FieldProblem[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

// ── Beyond the interface: the gateway family's lookups (docs/order-references.md "Beyond the interface") ──

/**
 * A transaction as `GET /transaction/get/by/id/{transactionId}` and
 * `GET /transaction/get/by/orderId/{orderId}` answer it (HTTP 200). `status` is a word
 * (`created`, `paid`, `failed`, `canceled`, `refund`, `infraction`), `object` `cashin` or
 * `transfer` (a cash-out), `value` integer cents, `processedAt` ISO 8601 (the documented example
 * has no zone); `payer` for a paid cash-in, `destinationBank` for a transfer. Unknown fields are kept.
 * Built on first use.
 */
export const transactionLookupSchema = builtOnUse(() => {
  const nullishText = z.nullish(z.string());
  const nullishId = z.nullish(z.union([z.string(), z.number()]));
  return z.looseObject({
    transactionId: z.int(),
    status: z.union([z.string().check(z.minLength(1)), z.int()]),
    value: z.int(),
    object: nullishText,
    orderId: nullishText,
    method: nullishText,
    endToEndId: nullishText,
    processedAt: nullishText,
    payer: z.nullish(z.looseObject({ name: nullishText, documentId: nullishText, bankName: nullishText, bankCode: nullishId, bankIspb: nullishId })),
    destinationBank: z.nullish(
      z.looseObject({ name: nullishText, cpfCnpj: nullishText, pixKey: nullishText, pixKeyType: nullishId, bank: nullishText, bankId: nullishId, ispb: nullishId }),
    ),
  });
});
export type TransactionLookup = z.output<ReturnType<typeof transactionLookupSchema>>;

/**
 * The account balance as `GET /transaction/get/balance` answers it (HTTP 200): integer cents;
 * `finalBalance` is the balance less retention (and what is already anticipated). Built on first use.
 */
export const balanceSchema = builtOnUse(() =>
  z.looseObject({
    balance: z.int(),
    retention: z.optional(z.int()),
    toAnticipate: z.optional(z.int()),
    finalBalance: z.optional(z.int()),
  }),
);
export type Balance = z.output<ReturnType<typeof balanceSchema>>;
