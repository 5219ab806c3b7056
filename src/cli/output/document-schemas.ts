/**
 * The shapes of paycli's JSON documents, one per command (docs/output-for-scripts.md "Documents"), as zod
 * schemas; the documents themselves are built in src/cli/output/documents.ts. The schemas here are
 * written out as JSON Schema files in schemas/ by the build (tsup.config.ts), shipped in the
 * package and checked against real output by the tests. No command loads this module: building these
 * schemas cost every cash-out and cash-in (docs/speed.md "A cash-out without the document schemas").
 */
import * as z from 'zod/mini';

const cents = z.int();
const nullableText = z.nullable(z.string());
/** The gateway's answer, as received (secrets and control characters removed). */
const gatewayAnswer = z.record(z.string(), z.unknown());

/** A cash-out the gateway created (interface §2.4). */
export const cashOutDocSchema = z.object({
  kind: z.literal('cashout'),
  transactionId: z.int(),
  orderId: nullableText,
  gross: cents,
  tax: cents,
  liquid: cents,
  status: z.string(),
  statusCode: z.nullable(z.int()),
  createdAt: z.string(),
  sandbox: z.boolean(),
  ledgerEntry: z.nullable(z.int()),
  gateway: gatewayAnswer,
});

/** A cash-in the gateway created (interface §2.2): its ids, amount and BR Code. */
export const cashInDocSchema = z.object({
  kind: z.literal('cashin'),
  transactionId: z.int(),
  externalId: z.string(),
  orderId: nullableText,
  value: cents,
  qrCode: z.string(),
  qrCodeBase64: z.string(),
  sandbox: z.boolean(),
  ledgerEntry: z.nullable(z.int()),
  gateway: gatewayAnswer,
});

/** A transaction as a lookup found it (`status`, or a payment whose answer was lost, found by its order reference). */
export const transactionDocSchema = z.object({
  kind: nullableText,
  transactionId: z.int(),
  orderId: nullableText,
  value: cents,
  status: z.string(),
  statusCode: z.nullable(z.int()),
  method: nullableText,
  endToEndId: nullableText,
  processedAt: nullableText,
  payer: z.nullable(z.record(z.string(), z.unknown())),
  destinationBank: z.nullable(z.record(z.string(), z.unknown())),
  foundByOrderId: z.boolean(),
  ledgerEntry: z.nullable(z.int()),
  gateway: gatewayAnswer,
});

/** The account balance, in cents. */
export const balanceDocSchema = z.object({
  balance: cents,
  retention: z.nullable(cents),
  toAnticipate: z.nullable(cents),
  finalBalance: z.nullable(cents),
  gateway: gatewayAnswer,
});

/** One ledger entry as `history` shows it (each element of its array). */
export const historyEntryDocSchema = z.object({
  id: z.int(),
  uuid: z.string(),
  time: z.string(),
  kind: z.enum(['cashin', 'cashout']),
  value: cents,
  target: z.string(),
  endpoint: z.string(),
  sandbox: z.boolean(),
  profile: z.string(),
  pixKeyType: z.optional(z.int()),
  pixKey: z.optional(z.string()),
  recipient: z.optional(z.string()),
  payer: z.optional(z.string()),
  product: z.optional(z.string()),
  orderId: z.optional(z.string()),
  batchId: z.optional(z.string()),
  batchRow: z.optional(z.int()),
  allowDuplicate: z.boolean(),
  overrides: z.optional(z.int()),
  outcome: z.enum(['ok', 'refused', 'unknown', 'not_sent']),
  completed: z.boolean(),
  endTime: z.optional(z.string()),
  transactionId: z.optional(z.union([z.int(), z.string()])),
  status: z.optional(z.string()),
  statusCode: z.optional(z.nullable(z.int())),
  httpStatus: z.optional(z.int()),
  message: z.optional(z.string()),
  resolvedBy: z.optional(z.string()),
  resolvedTime: z.optional(z.string()),
  note: z.optional(z.string()),
  timeMs: z.optional(z.int()),
  deadlineMs: z.optional(z.int()),
  runId: z.optional(z.string()),
  pid: z.optional(z.int()),
  user: z.optional(z.string()),
  host: z.optional(z.string()),
  version: z.optional(z.string()),
  /** What the gateway's create answer said (BR Code, fee, net…), in cents. */
  answer: z.optional(
    z.object({
      qrCode: z.optional(z.string()),
      externalId: z.optional(z.string()),
      gross: z.optional(cents),
      tax: z.optional(cents),
      liquid: z.optional(cents),
      createdAt: z.optional(z.string()),
    }),
  ),
});

/** A `--dry-run`: the request that would be sent, nothing sent. */
export const dryRunDocSchema = z.object({
  dryRun: z.literal(true),
  method: z.string(),
  url: z.string(),
  headers: z.record(z.string(), z.string()),
  body: z.unknown(),
});

/** A decoded BR Code (`brcode decode`, `brcode qr`, `brcode create`): its objects by name, amounts in cents, and every problem found. */
export const brCodeDocSchema = z.object({
  brCode: z.string(),
  valid: z.boolean(),
  kind: z.optional(z.enum(['static', 'dynamic'])),
  initiation: z.optional(z.enum(['11', '12'])),
  key: z.optional(z.string()),
  url: z.optional(z.string()),
  info: z.optional(z.string()),
  recurrenceUrl: z.optional(z.string()),
  merchantCategoryCode: z.optional(z.string()),
  currency: z.optional(z.string()),
  amountCents: z.optional(cents),
  country: z.optional(z.string()),
  merchantName: z.optional(z.string()),
  merchantCity: z.optional(z.string()),
  postalCode: z.optional(z.string()),
  txid: z.optional(z.string()),
  crc: z.optional(z.string()),
  unknown: z.array(z.object({ id: z.string(), value: z.string() })),
  problems: z.array(z.object({ rule: z.string(), severity: z.enum(['error', 'warning']), message: z.string(), ruleText: z.string(), source: z.string() })),
});

/** One postback event of the sandbox (`sandbox events`, `sandbox resend`: an array of these). */
const sandboxEventSchema = z.looseObject({
  id: z.string(),
  transactionId: z.int(),
  object: z.string(),
  status: z.string(),
  url: z.string(),
  state: z.string(),
  attempts: z.int(),
  createdAt: z.string(),
  deliveredAt: nullableText,
  nextAttemptAt: nullableText,
  lastAttempts: z.array(z.object({ n: z.int(), at: z.string(), outcome: z.string() })),
});

/** A sandbox state change (`sandbox pay|fail|cancel|refund|infraction`). */
const sandboxChangeSchema = z.looseObject({ transactionId: z.int(), kind: z.string(), status: z.string(), previousStatus: z.string(), postback: z.optional(z.unknown()) });

/** A profile as `config profiles` lists it (no secret: `apiKey` says whether one is set). */
const profileRowSchema = z.object({ name: z.string(), active: z.boolean(), baseUrl: nullableText, cashinBaseUrl: nullableText, cashoutBaseUrl: nullableText, apiKey: z.boolean() });

/** `reconcile`: each unknown entry asked about, and how many were settled. */
export const reconcileDocSchema = z.object({
  entries: z.array(
    z.looseObject({
      id: z.int(),
      time: z.string(),
      kind: z.enum(['cashin', 'cashout']),
      value: cents,
      profile: z.string(),
      orderId: z.optional(z.string()),
      result: z.enum(['ok', 'not_sent', 'unknown']),
      transactionId: z.optional(z.int()),
      status: z.optional(z.string()),
    }),
  ),
  settled: z.int(),
  unknown: z.int(),
});

export type CashOutDoc = z.output<typeof cashOutDocSchema>;
export type CashInDoc = z.output<typeof cashInDocSchema>;
export type TransactionDoc = z.output<typeof transactionDocSchema>;
export type BalanceDoc = z.output<typeof balanceDocSchema>;
export type HistoryEntryDoc = z.output<typeof historyEntryDocSchema>;

/** One side of a receipt (src/payment/receipt.ts `ReceiptParty`): keys and documents masked; the gateway account when it is yours. */
const receiptPartySchema = z.object({
  name: z.optional(z.string()),
  document: z.optional(z.string()),
  pixKey: z.optional(z.string()),
  pixKeyType: z.optional(z.string()),
  institution: z.optional(z.string()),
  account: z.optional(z.object({ gateway: z.string(), profile: z.string() })),
});

/**
 * The JSON Schema of each command's `--json` document, by command (its file in schemas/ is
 * `<name>.schema.json`). `history` is the schema of one element of its array.
 */
export const DOCUMENT_SCHEMAS = {
  cashout: z.union([cashOutDocSchema, transactionDocSchema, dryRunDocSchema]),
  cashin: z.union([cashInDocSchema, transactionDocSchema, dryRunDocSchema]),
  status: transactionDocSchema,
  balance: balanceDocSchema,
  history: historyEntryDocSchema,
  'history-resolve': historyEntryDocSchema,
  reconcile: reconcileDocSchema,
  'config-path': z.object({ path: z.string() }),
  'config-profiles': z.object({ profiles: z.array(profileRowSchema) }),
  'config-list': z.object({ profile: z.string(), values: z.record(z.string(), z.string()) }),
  'config-get': z.object({ profile: z.string(), key: z.string(), value: z.string() }),
  'auth-login': z.object({ profile: z.string(), gateway: z.string(), store: z.enum(['keychain', 'file']), checked: z.boolean() }),
  'auth-status': z.object({
    profile: z.string(),
    gateway: z.string(),
    store: z.enum(['env', 'keychain', 'file', 'none']),
    key: nullableText,
    accepted: z.nullable(z.boolean()),
    problem: z.optional(z.string()),
  }),
  'auth-logout': z.object({ profile: z.string(), removed: z.boolean() }),
  'ledger-migrate': z.object({ from: z.int(), to: z.int() }),
  'ledger-push': z.object({ entries: z.int(), added: z.int() }),
  'brcode-decode': brCodeDocSchema,
  'brcode-qr': brCodeDocSchema,
  'brcode-create': brCodeDocSchema,
  'sandbox-pay': sandboxChangeSchema,
  'sandbox-fail': sandboxChangeSchema,
  'sandbox-cancel': sandboxChangeSchema,
  'sandbox-refund': sandboxChangeSchema,
  'sandbox-infraction': sandboxChangeSchema,
  'sandbox-ping': z.looseObject({ url: z.string(), delivered: z.boolean(), outcome: z.string() }),
  'sandbox-failure': z.union([
    z.object({ cleared: z.int() }),
    z.array(z.looseObject({ failure: z.string(), pixKey: z.optional(z.string()), value: z.optional(cents) })),
    z.looseObject({ failure: z.string(), pixKey: z.optional(z.string()), value: z.optional(cents) }),
  ]),
  'sandbox-events': z.array(sandboxEventSchema),
  'sandbox-resend': z.array(sandboxEventSchema),
  'sandbox-reset': z.object({ dataDir: z.string(), removed: z.boolean() }),
  completion: z.object({ shell: z.enum(['bash', 'zsh', 'fish']), script: z.string() }),
  receipt: z.union([
    z.object({
      kind: z.enum(['cashin', 'cashout']),
      entry: z.int(),
      transactionId: z.string(),
      orderId: z.optional(z.string()),
      endToEndId: z.optional(z.string()),
      externalId: z.optional(z.string()),
      value: cents,
      fee: z.optional(cents),
      net: z.optional(cents),
      time: z.string(),
      status: z.string(),
      payer: receiptPartySchema,
      recipient: receiptPartySchema,
      brCode: z.optional(z.string()),
      product: z.optional(z.string()),
      gateway: z.string(),
      profile: z.string(),
      sandbox: z.boolean(),
    }),
    // a PDF or PNG written to a file: the file's name
    z.object({ file: z.string() }),
  ]),
} as const;

/**
 * The JSON Schema files of {@link DOCUMENT_SCHEMAS}: file name (`cashout.schema.json`) → its text,
 * each with a title naming the command. Written into schemas/ by the build (tsup.config.ts).
 */
export function schemaFiles(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(DOCUMENT_SCHEMAS).map(([name, schema]) => {
      const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
      const command = `paycli ${name.replace('-', ' ')}`;
      const doc = { $schema: json.$schema, title: `${command} --json${name === 'history' ? ' (one element of the array)' : ''}`, ...json };
      return [`${name}.schema.json`, `${JSON.stringify(doc, null, 2)}\n`];
    }),
  );
}

/** Writes {@link schemaFiles} into `dir` (the package's schemas/ folder). */
export async function writeSchemaFiles(dir: string): Promise<void> {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(schemaFiles())) writeFileSync(join(dir, name), text);
}
