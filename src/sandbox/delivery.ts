/**
 * How the standalone sandbox delivers postbacks (docs/sandbox-and-postbacks.md, "Events and
 * delivery"). The interface says nothing of retries (§6: "not shown"); the rules are the sandbox's,
 * modelled on what live payment gateways do (retrying for hours to a day):
 *
 * - every postback is an event (src/sandbox/events.ts), kept across restarts with the same state
 *   folder; delivery is POST JSON, the body byte for byte the same on every attempt, with the
 *   headers `x-paycli-event-id: evt_<n>` and `x-paycli-delivery-attempt: <n>` (1 on the first
 *   attempt; more is a redelivery); direct connection (proxy variables are not used); any 2xx
 *   delivers it; redirects are not followed;
 * - a lane is one receiver URL and one transaction: at most one attempt of a lane is open at a time,
 *   and a lane's events go out in creation order (the next waits until the one before is delivered
 *   or given up), so the events of one transaction arrive in order;
 * - an attempt ends with the answer's headers, or after {@link ATTEMPT_TIMEOUT_MS} (name resolution
 *   included: src/gateway/resolve-within.ts), when its connection is closed: the next attempt of the event starts only after that, so a slow receiver
 *   never holds two copies of an event at once;
 * - after the n-th failed attempt in a row the event waits min(max, first·2^(n−1)) with jitter
 *   (a random time between half of it and all of it); once a wait would end after its deadline
 *   (created or resent + `retryFor`), it is given up (state `failed`);
 * - at most {@link MAX_IN_FLIGHT} attempts are open at once across all lanes; and once
 *   {@link GATE_AFTER_FAILURES} attempts in a row to one URL failed, the receiver is treated as down:
 *   one attempt at a time probes it (the due events take turns), the probes spaced by the same
 *   schedule, and the other due events wait without an attempt until a probe is answered 2xx, when
 *   they all go. An outage with thousands of events costs a few attempts, not thousands. An event
 *   whose deadline passes while it waits is given up; a resend lets the next probe go at once;
 * - `resend` puts an event (delivered or not) back as pending, due now, with a new deadline.
 */
import { parseDuration as parseAnyDuration } from '../core/duration.js';
import { Agent, request } from 'undici';
import { errorCodeOf } from '../core/error-cause.js';
import { LOOKUP_TIMEOUT_CODE, lookupWithin, type LookupFunction } from '../gateway/resolve-within.js';
import { ATTEMPT_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER, signPostback, type PostbackBody } from '../gateway/postback.js';
import { VERSION } from '../core/version.js';
import { t } from '../core/i18n/index.js';
import type { EventAttempt, EventStore, SandboxEvent } from './events.js';

/** A retry schedule: the wait after the first failed attempt, doubling up to the largest. */
export interface RetrySchedule {
  firstWaitMs: number;
  maxWaitMs: number;
}

/** The named schedules of `--retry-schedule`: standard (10 s doubling to 1 h) and fast (for tests). */
export const RETRY_SCHEDULES = {
  standard: { firstWaitMs: 10_000, maxWaitMs: 3_600_000 },
  fast: { firstWaitMs: 100, maxWaitMs: 2_000 },
} as const satisfies Record<string, RetrySchedule>;

/** Default `--retry-for`: 24 hours, in ms. */
export const DEFAULT_RETRY_FOR_MS = 24 * 3_600_000;
/** Time one attempt may take, connection to the answer's headers, in ms (10 s). */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Most attempts open at once, all lanes together. */
export const MAX_IN_FLIGHT = 16;
/** Failed attempts in a row to one URL after which it is probed by one attempt at a time. */
export const GATE_AFTER_FAILURES = 3;

/**
 * The wait after the `failures`-th failed attempt in a row, in ms: d = min(max, first·2^(failures−1)),
 * then a random time in [d/2, d] (jitter spreads out the retries of many events).
 * @param random a number in [0, 1) (injected by tests)
 */
export function retryWait(schedule: RetrySchedule, failures: number, random: number = Math.random()): number {
  const d = Math.min(schedule.maxWaitMs, schedule.firstWaitMs * 2 ** Math.max(0, Math.min(failures - 1, 40)));
  return Math.round(d / 2 + (random * d) / 2);
}

/** Where a URL points, without query or credentials (they may hold tokens), for logs and listings. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

/** The outcome of one delivery attempt. */
export interface AttemptOutcome {
  /** True for a 2xx answer. */
  ok: boolean;
  /** The answer's HTTP status, when there was one. */
  status?: number;
  /** `HTTP 200`, `no answer within 10000 ms`, `connection failed (ECONNREFUSED)`. */
  outcome: string;
}

/** Options of a {@link PostbackDeliverer}. */
export interface DelivererOptions {
  store: EventStore;
  /** Sign each attempt with this secret ({@link SIGNATURE_HEADER}); unsigned when absent. */
  secret?: string;
  /** Default {@link RETRY_SCHEDULES}.standard. */
  schedule?: RetrySchedule;
  /** How long an event is retried, from its creation or resend, in ms (default {@link DEFAULT_RETRY_FOR_MS}). */
  retryForMs?: number;
  /** Default {@link ATTEMPT_TIMEOUT_MS}. */
  attemptTimeoutMs?: number;
  /** One line per attempt and per event given up. */
  log: (line: string) => void;
  /** The name resolver (default `dns.lookup`), held to the attempt timeout; tests give one that never answers. */
  lookup?: LookupFunction;
}

/** One receiver URL and one transaction: its pending events in creation order. */
interface Lane {
  key: string;
  queue: SandboxEvent[];
  /** An attempt of its head is open. */
  busy: boolean;
  /** Waiting for its failing receiver, or for a free attempt slot. */
  parked?: 'receiver' | 'slot';
  /** Its open attempt is its receiver's probe. */
  probe?: boolean;
  timer?: NodeJS.Timeout;
}

/** A receiver URL: while it fails, one lane at a time probes it (module doc). */
interface Receiver {
  url: string;
  /** Failed attempts in a row, all events together. */
  failures: number;
  /** Failed probes in a row (sets the wait before the next probe). */
  probeStreak: number;
  /** No probe before this time (epoch ms). */
  nextProbeAt: number;
  probing: boolean;
  /** Lanes with a due head, waiting for it, in order. */
  waiting: Lane[];
  timer?: NodeJS.Timeout;
}

const laneKey = (e: SandboxEvent) => `${e.transactionId} ${e.url}`;

/** Takes `e` out of its lane (by identity: a resend may have put an older event before it). */
function dropFromLane(lane: Lane, e: SandboxEvent): void {
  const i = lane.queue.indexOf(e);
  if (i >= 0) lane.queue.splice(i, 1);
}
const kindOf = (e: SandboxEvent) => (e.object === 'cashin' ? t('sandbox.log.cashin') : t('sandbox.log.cashout'));

/** Sends the events of an {@link EventStore} as the module doc says. */
export class PostbackDeliverer {
  private readonly agent: Agent;
  private readonly stop = new AbortController();
  private readonly lanes = new Map<string, Lane>();
  private readonly receivers = new Map<string, Receiver>();
  /** Lanes with a due event, waiting for a free attempt slot, in order. */
  private readonly slotQueue: Lane[] = [];
  private inFlight = 0;
  private readonly running = new Set<Promise<void>>();
  private readonly opts: DelivererOptions;
  private readonly schedule: RetrySchedule;
  private readonly retryForMs: number;
  private readonly timeoutMs: number;

  constructor(opts: DelivererOptions) {
    this.opts = opts;
    this.schedule = opts.schedule ?? RETRY_SCHEDULES.standard;
    this.retryForMs = opts.retryForMs ?? DEFAULT_RETRY_FOR_MS;
    this.timeoutMs = opts.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
    this.agent = new Agent({
      connectTimeout: this.timeoutMs,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      connections: MAX_IN_FLIGHT,
      connect: { lookup: lookupWithin(this.timeoutMs, opts.lookup) },
    });
  }

  /** How long events are retried, in ms. */
  get retryFor(): number {
    return this.retryForMs;
  }

  /** Puts every pending event of the store in its lane (after a restart). */
  start(): void {
    for (const e of this.opts.store.all()) if (e.state === 'pending') this.place(e);
    for (const lane of this.lanes.values()) this.kick(lane);
  }

  /** Records a postback of `body` to `url` as an event and queues it. */
  enqueue(url: string, body: PostbackBody): SandboxEvent {
    const e = this.opts.store.add({ transactionId: body.transactionId, object: body.object, status: body.status, url, body: JSON.stringify(body) }, Date.now(), this.retryForMs);
    this.kick(this.place(e));
    return e;
  }

  /**
   * Sends an event again: pending, due now, a new deadline, the wait back to the first one.
   * An event in an open attempt is left to it. @returns false for an unknown id
   */
  resend(id: string): SandboxEvent | undefined {
    const e = this.opts.store.get(id);
    if (!e) return undefined;
    const now = Date.now();
    this.opts.store.update(e, { state: 'pending', nextAt: now, deadline: now + this.retryForMs, streak: 0, deliveredAt: null });
    const lane = this.place(e);
    const r = this.receivers.get(e.url);
    if (r) {
      r.probeStreak = 0;
      r.nextProbeAt = 0;
      this.armReceiver(r);
    }
    this.kick(lane);
    return e;
  }

  /** Puts `e` in its lane, in creation order (once). */
  private place(e: SandboxEvent): Lane {
    const key = laneKey(e);
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { key, queue: [], busy: false };
      this.lanes.set(key, lane);
    }
    if (!lane.queue.includes(e)) {
      let i = lane.queue.length;
      while (i > 0 && lane.queue[i - 1]!.seq > e.seq) i--;
      lane.queue.splice(i, 0, e);
    }
    return lane;
  }

  /** The state of one receiver URL, made on first use. */
  private receiver(url: string): Receiver {
    let r = this.receivers.get(url);
    if (!r) {
      r = { url, failures: 0, probeStreak: 0, nextProbeAt: 0, probing: false, waiting: [] };
      this.receivers.set(url, r);
    }
    return r;
  }

  /**
   * Starts the lane's head when it is due, its receiver takes an attempt and a slot is free; else
   * sets a timer, or parks the lane with its receiver or in the slot queue. A head whose deadline
   * passed while its receiver is failing is given up without a further attempt.
   */
  private kick(lane: Lane): void {
    if (this.stop.signal.aborted) return;
    if (lane.timer) {
      clearTimeout(lane.timer);
      lane.timer = undefined;
    }
    if (lane.busy || lane.parked) return;
    for (;;) {
      const head = lane.queue[0];
      if (!head) {
        this.lanes.delete(lane.key);
        return;
      }
      const now = Date.now();
      const delay = head.nextAt - now;
      if (delay > 0) {
        lane.timer = setTimeout(
          () => {
            lane.timer = undefined;
            this.kick(lane);
          },
          Math.min(delay, 2 ** 31 - 1),
        );
        return;
      }
      const r = this.receiver(head.url);
      if (r.failures >= GATE_AFTER_FAILURES) {
        if (head.deadline <= now) {
          this.giveUp(lane, head);
          continue;
        }
        if (r.probing || now < r.nextProbeAt) {
          lane.parked = 'receiver';
          r.waiting.push(lane);
          this.armReceiver(r);
          return;
        }
        r.probing = true;
        lane.probe = true;
      }
      if (this.inFlight >= MAX_IN_FLIGHT) {
        lane.parked = 'slot';
        this.slotQueue.push(lane);
        return;
      }
      lane.busy = true;
      this.inFlight++;
      const run = this.deliverHead(lane, head).finally(() => {
        this.running.delete(run);
        this.inFlight--;
        lane.busy = false;
        if (lane.probe) {
          lane.probe = false;
          r.probing = false;
          this.armReceiver(r);
        }
        const next = this.slotQueue.shift();
        if (next) {
          next.parked = undefined;
          this.kick(next);
        }
        this.kick(lane);
      });
      this.running.add(run);
      return;
    }
  }

  /** Sets the receiver's timer for its next probe (when lanes wait for it and none is open). */
  private armReceiver(r: Receiver): void {
    if (r.timer) clearTimeout(r.timer);
    r.timer = undefined;
    if (this.stop.signal.aborted || r.probing || r.waiting.length === 0) return;
    r.timer = setTimeout(() => this.wakeReceiver(r), Math.max(0, Math.min(r.nextProbeAt - Date.now(), 2 ** 31 - 1)));
  }

  /**
   * A receiver's turn: heads past their deadline are given up; the first waiting lane is let go
   * (it probes the receiver when it is still failing; all go when it is not).
   */
  private wakeReceiver(r: Receiver): void {
    r.timer = undefined;
    const now = Date.now();
    const waiting = r.waiting.splice(0);
    const keep: Lane[] = [];
    for (const lane of waiting) {
      const head = lane.queue[0];
      if (head && head.deadline <= now && r.failures >= GATE_AFTER_FAILURES) {
        lane.parked = undefined;
        this.giveUp(lane, head);
        this.kick(lane);
      } else keep.push(lane);
    }
    r.waiting.push(...keep);
    const release = r.failures >= GATE_AFTER_FAILURES ? r.waiting.splice(0, 1) : r.waiting.splice(0);
    for (const lane of release) {
      lane.parked = undefined;
      this.kick(lane);
    }
    this.armReceiver(r);
  }

  /** Gives up the lane's head (state failed), its receiver failing, and logs why. */
  private giveUp(lane: Lane, e: SandboxEvent): void {
    dropFromLane(lane, e);
    this.opts.store.update(e, { state: 'failed' });
    this.opts.log(t('sandbox.log.gaveUpFailing', `${kindOf(e)} ${e.transactionId} ${e.status} → ${shownUrl(e.url)} (${e.id})`, e.attempts, formatDuration(this.retryForMs), e.id));
  }

  /** One attempt of the lane's head event, and what follows from its outcome. */
  private async deliverHead(lane: Lane, e: SandboxEvent): Promise<void> {
    const n = e.attempts + 1;
    const started = Date.now();
    const result = await this.attempt(e.url, e.body, { [EVENT_ID_HEADER]: e.id, [ATTEMPT_HEADER]: String(n) });
    if (this.stop.signal.aborted) return; // stopped mid-attempt: still pending, sent again after a restart
    const now = Date.now();
    const attempt: EventAttempt = { n, at: new Date(started).toISOString(), outcome: result.outcome, status: result.status ?? null, ms: now - started };
    const head = t('sandbox.log.attempt', `${kindOf(e)} ${e.transactionId} ${e.status} → ${shownUrl(e.url)} (${e.id})`, n, result.outcome);
    const r = this.receiver(e.url);
    if (result.ok) {
      r.failures = 0;
      r.probeStreak = 0;
      r.nextProbeAt = 0;
      const waiting = r.waiting.splice(0);
      for (const l of waiting) {
        l.parked = undefined;
        queueMicrotask(() => this.kick(l));
      }
    } else {
      r.failures++;
      if (lane.probe) r.probeStreak++;
      if (r.failures >= GATE_AFTER_FAILURES) r.nextProbeAt = Math.max(r.nextProbeAt, now + retryWait(this.schedule, r.probeStreak + 1));
    }
    if (result.ok) {
      dropFromLane(lane, e);
      this.opts.store.update(e, { state: 'delivered', attempts: n, streak: 0, deliveredAt: new Date(now).toISOString() }, attempt);
      this.opts.log(`${head}${t('sandbox.log.delivered')}`);
      return;
    }
    const streak = e.streak + 1;
    const wait = retryWait(this.schedule, streak);
    if (now + wait > e.deadline) {
      dropFromLane(lane, e);
      this.opts.store.update(e, { state: 'failed', attempts: n, streak }, attempt);
      this.opts.log(`${head}${t('sandbox.log.givingUp', formatDuration(this.retryForMs), e.id)}`);
      return;
    }
    this.opts.store.update(e, { attempts: n, streak, nextAt: now + wait }, attempt);
    this.opts.log(`${head}${t('sandbox.log.retryIn', formatDuration(wait))}`);
  }

  /** One attempt: POST `raw` to `url` with `extra` headers, signed when there is a secret. Never throws. */
  async attempt(url: string, raw: string, extra: Record<string, string> = {}): Promise<AttemptOutcome> {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': `paycli-sandbox/${VERSION}`, ...extra };
    if (this.opts.secret !== undefined) headers[SIGNATURE_HEADER] = signPostback(this.opts.secret, raw);
    // One controller per attempt, its timer and its stop listener removed when it ends
    // (AbortSignal.any and AbortSignal.timeout would keep every attempt's signal alive until the
    // sandbox stops: thousands of attempts in an outage).
    const ac = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ac.abort();
    }, this.timeoutMs);
    const onStop = () => ac.abort();
    this.stop.signal.addEventListener('abort', onStop, { once: true });
    try {
      const res = await request(url, { method: 'POST', headers, body: raw, dispatcher: this.agent, signal: ac.signal });
      await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      return { ok: res.statusCode >= 200 && res.statusCode < 300, status: res.statusCode, outcome: `HTTP ${res.statusCode}` };
    } catch (err) {
      const code = errorCodeOf(err);
      if (code === LOOKUP_TIMEOUT_CODE) return { ok: false, outcome: `connection failed (${LOOKUP_TIMEOUT_CODE}: name not resolved within ${this.timeoutMs} ms)` };
      if (timedOut) return { ok: false, outcome: `no answer within ${this.timeoutMs} ms` };
      return { ok: false, outcome: `connection failed (${code ?? (err as Error)?.message ?? 'unknown error'})` };
    } finally {
      clearTimeout(timer);
      this.stop.signal.removeEventListener('abort', onStop);
    }
  }

  /** Sends the `{"test": true}` ping to `url`: one attempt, logged, not an event. */
  async ping(url: string, raw: string): Promise<AttemptOutcome> {
    const result = await this.attempt(url, raw);
    this.opts.log(`ping → ${shownUrl(url)}: ${result.outcome}${result.ok ? t('sandbox.log.delivered') : ''}`);
    return result;
  }

  /** Pending events (in a lane), for the stop message. */
  private pendingCount(): number {
    let n = 0;
    for (const lane of this.lanes.values()) n += lane.queue.length;
    return n;
  }

  /** Stops: cancels timers and open attempts (their events stay pending); resolves when all ended. */
  async close(): Promise<number> {
    const pending = this.pendingCount();
    this.stop.abort();
    for (const lane of this.lanes.values()) if (lane.timer) clearTimeout(lane.timer);
    for (const r of this.receivers.values()) if (r.timer) clearTimeout(r.timer);
    await Promise.allSettled([...this.running]);
    await this.agent.destroy().catch(() => undefined);
    return pending;
  }
}

/** `250 ms`, `12 s`, `5 min`, `24 h` (whole units, rounded down). */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${Math.floor(ms / 100) / 10} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min`;
  return `${Math.floor(ms / 360_000) / 10} h`;
}

/**
 * Reads a `--retry-for` duration: a number and a unit, `ms`, `s`, `m`, `h` or `d` (`90s`, `30m`,
 * `24h`, `2d`); from 1 ms to 30 days. @returns ms, or undefined when it is not one
 */
export function parseDuration(text: string): number | undefined {
  const ms = parseAnyDuration(text); // src/core/duration.ts: the one syntax
  return ms !== undefined && ms >= 1 && ms <= 30 * 86_400_000 ? ms : undefined;
}
