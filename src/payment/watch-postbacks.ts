/**
 * Postbacks as the fast path of `--watch` (docs/cash-in-and-cash-out.md "Waiting for the outcome: --watch",
 * docs/sandbox-and-postbacks.md "Postbacks and --watch").
 *
 * - When a watched cash-in's `postbackUrl` is `http://` on this machine's loopback (`127.0.0.1` or another
 *   127.x address, `[::1]`, `localhost`: both 127.0.0.1 and ::1), paycli listens on that address and port
 *   itself, with the receiver of `paycli listen` (src/gateway/receiver.ts), started before the cash-in is
 *   sent. A batch starts one receiver per such address its rows name (at most {@link MAX_RECEIVERS}).
 * - A postback is a hint, never the outcome: one for a watched transaction (its transaction id, or its
 *   order reference while the id is not known; `object` cashin or absent) whose status differs from the
 *   state last seen makes the wait ask the gateway about it at once, yet never sooner than a second
 *   after the last answer (src/payment/watch.ts `nudge`). The gateway's answer decides: a postback forged
 *   on the open port, or one about another transaction, ends no wait and costs at most one lookup a
 *   second. Without postbacks (none arrives, or the receiver could not start) the wait asks the gateway
 *   as it always does.
 * - With env PAYCLI_POSTBACK_SECRET set, a postback without a valid signature is refused (401), as
 *   `paycli listen --secret` refuses it. Every other postback is answered 200 (the gateway does not send
 *   it again).
 * - A port that cannot be listened on (another program, `paycli listen` for one, has it) is a notice,
 *   not an error: nothing of the payment depends on it.
 * - Postbacks that arrive before the wait starts (the `created` one, during the request) are remembered,
 *   the last {@link RECENT_MAX} of them.
 */
import { t } from '../core/i18n/index.js';
import { logger } from '../core/logger.js';
import { registerSecret, sanitizeText } from '../core/sanitize.js';
import { startReceiver, type ReceivedPostback, type Receiver } from '../gateway/receiver.js';
import { stateOf, nudge, type Watched } from './watch.js';

/** Most receivers one run starts (distinct loopback addresses among a batch's postback URLs). */
export const MAX_RECEIVERS = 4;
/** Most postbacks remembered from before the wait (the oldest forgotten first). */
export const RECENT_MAX = 10_000;

/**
 * Where paycli can listen for a postback URL itself: `http://` on a loopback host with an explicit or
 * default port. @returns the addresses to listen on (two for `localhost`) and the port, or undefined for
 * any other URL (https, another host, not a URL)
 */
export function localReceiverAddress(url: string): { hosts: string[]; port: number } | undefined {
  if (!URL.canParse(url.trim())) return undefined;
  const u = new URL(url.trim());
  if (u.protocol !== 'http:') return undefined;
  const port = u.port === '' ? 80 : Number(u.port);
  const host = u.hostname.toLowerCase();
  if (host === 'localhost') return { hosts: ['127.0.0.1', '::1'], port };
  if (host === '[::1]') return { hosts: ['::1'], port };
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return { hosts: [host], port };
  return undefined;
}

/** The keys a watched transaction answers to: its transaction id when known, else its lookup key. */
function keyOf(w: Watched): string {
  if (w.transactionId !== undefined) return `tx:${w.transactionId}`;
  return 'orderId' in w.key ? `order:${w.key.orderId}` : `tx:${w.key.transactionId}`;
}

/** The receivers of one run and the transactions their postbacks hurry. */
export interface PostbackHints {
  /** The URLs listened on. */
  urls: string[];
  /** Makes postbacks for these transactions hurry their next question (those already received included). */
  watch(list: readonly Watched[]): void;
  /** Stops every receiver. */
  close(): Promise<void>;
}

/**
 * Starts a receiver for each loopback address among `postbackUrls` (module doc); prints where it
 * listens, or why it could not. Never throws.
 * @returns the receivers, or undefined when no URL is local or none could start
 */
export async function listenForPostbacks(postbackUrls: Iterable<string>): Promise<PostbackHints | undefined> {
  const addresses = new Map<string, { host: string; port: number }>();
  for (const url of postbackUrls) {
    const local = localReceiverAddress(url);
    for (const host of local?.hosts ?? []) addresses.set(`${host} ${local!.port}`, { host, port: local!.port });
  }
  if (addresses.size === 0) return undefined;
  const secret = process.env.PAYCLI_POSTBACK_SECRET || undefined;
  registerSecret(secret);
  const watched = new Map<string, Watched>();
  const recent = new Map<string, string>();

  const onPostback = (p: ReceivedPostback): void => {
    const { transactionId, orderId, status, object } = p.body;
    if ((object !== undefined && object !== 'cashin') || (typeof status !== 'string' && typeof status !== 'number')) return;
    const state = stateOf(status);
    const keys = [
      ...(typeof transactionId === 'number' || typeof transactionId === 'string' ? [`tx:${transactionId}`] : []),
      ...(typeof orderId === 'string' ? [`order:${orderId}`] : []),
    ];
    for (const key of keys) {
      recent.delete(key);
      recent.set(key, state);
      if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value!);
      const w = watched.get(key);
      if (w && !w.end && w.state !== state) {
        logger.debug(`postback: ${sanitizeText(key, true)} is ${sanitizeText(state, true)}; asking the gateway`);
        nudge(w);
        return;
      }
    }
  };

  const receivers: Receiver[] = [];
  let tried = 0;
  for (const a of addresses.values()) {
    if (tried++ >= MAX_RECEIVERS) {
      logger.notice(t('watch.tooManyReceivers', MAX_RECEIVERS));
      break;
    }
    try {
      receivers.push(await startReceiver({ host: a.host, port: a.port, ...(secret !== undefined ? { secret } : {}), onPostback }));
    } catch (err) {
      // ::1 of `localhost` on a machine without IPv6 is no loss when 127.0.0.1 listens
      if (a.host === '::1' && (err as NodeJS.ErrnoException).code === 'EADDRNOTAVAIL') continue;
      // the address only: the URL's path, query or user info (a credential) are not repeated
      const where = `http://${a.host.includes(':') ? `[${a.host}]` : a.host}:${a.port}`;
      logger.notice(t('watch.noReceiver', where, (err as NodeJS.ErrnoException).code ?? (err as Error).message));
    }
  }
  if (receivers.length === 0) return undefined;
  const urls = receivers.map((r) => r.url);
  logger.notice(t('watch.listening', urls.join(', ')));
  return {
    urls,
    watch(list) {
      for (const w of list) {
        const key = keyOf(w);
        watched.set(key, w);
        const seen = recent.get(key);
        if (seen !== undefined && seen !== w.state) nudge(w);
      }
    },
    close: async () => {
      await Promise.all(receivers.map((r) => r.close()));
    },
  };
}
