/**
 * A small gateway client written the way public integrations of this gateway family are: it knows
 * nothing of paycli. Bearer token, an `orderId` on every request, `success` read from every answer
 * (a cash-in without `success: true` is a failure; a cash-out's `success` comes as the string
 * "true"), `postbackUrl` on cash-ins and cash-outs, lookups that send the token raw (as the
 * documentation's lookup examples do). It is used by test/e2e/sandbox-outsider.test.ts against
 * `paycli sandbox`, as another program's test suite would use it.
 */

/** What a call answered: the HTTP status and the parsed JSON body. */
export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
}

/** A cash-in as the client's model reads it. */
export interface CashInResult {
  transactionId: number;
  externalId: string;
  orderId: string;
  qrCode: string;
  qrCodeBase64: string;
  success: boolean;
}

/** A cash-out as the client's model reads it. */
export interface CashOutResult {
  transactionId: number;
  orderId: string;
  gross: number;
  tax: string;
  liquid: string;
  status: string;
  createdAt: string;
  success: string | boolean;
  description: string | null;
}

/** Thrown when the gateway says no (or does not say yes). */
export class GatewayFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export class OutsiderClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown, raw = false): Promise<Answer<T>> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { authorization: raw ? this.token : `Bearer ${this.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as T };
  }

  /** Creates a cash-in; throws unless the answer says `success: true`. */
  async createCashIn(req: { orderId: string; value: number; postbackUrl: string; payer: { name: string; document: string; email: string; phone: string } }): Promise<CashInResult> {
    const { status, body } = await this.call<CashInResult & { message?: string }>('POST', '/transaction/qrcode/cashin', {
      payerName: req.payer.name,
      payerDocument: req.payer.document,
      payerEmail: req.payer.email,
      payerPhone: req.payer.phone,
      productName: 'Pedido',
      productDescription: `Pedido ${req.orderId}`,
      value: req.value,
      postbackUrl: req.postbackUrl,
      orderId: req.orderId,
      splits: null,
    });
    if (status !== 200 || body.success !== true) throw new GatewayFailure(body.message ?? 'cash-in failed', status);
    return body;
  }

  /** Creates a cash-out (PIX key type 2, e-mail); throws unless `success` is "true". */
  async createCashOut(req: { orderId: string; value: number; postbackUrl: string; pixKey: string; name: string; email: string }): Promise<CashOutResult> {
    const { status, body } = await this.call<CashOutResult & { message?: string }>('POST', '/transaction/cashout', {
      value: req.value,
      pixKeyType: 2,
      pixKey: req.pixKey,
      cpfCnpj: '',
      person: { name: req.name, email: req.email, phone: '' },
      orderId: req.orderId,
      postbackUrl: req.postbackUrl,
    });
    if (status !== 200 || String(body.success) !== 'true') throw new GatewayFailure(body.message ?? 'cash-out failed', status);
    return body;
  }

  /** Looks a transaction up by the client's own order reference (token sent raw). */
  byOrderId(orderId: string): Promise<Answer> {
    return this.call('GET', `/transaction/get/by/orderId/${encodeURIComponent(orderId)}`, undefined, true);
  }

  /** The account balance (token sent raw). */
  balance(): Promise<Answer> {
    return this.call('GET', '/transaction/get/balance', undefined, true);
  }
}
