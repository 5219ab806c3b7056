/**
 * Name resolution with a deadline, for undici agents (`new Agent({connect: {lookup: lookupWithin(ms)}})`).
 *
 * undici's own limits do not cover name resolution: `connectTimeout` starts once the address is
 * known, and an aborted request whose host name is still being resolved stays unsettled until the
 * resolver answers, which can take minutes offline (a resolver that does not answer at all). So
 * a postback attempt to `https://your-postback-url.com` with no network would never end. The
 * lookup here answers within `ms` whatever the resolver does: with the resolver's answer, or
 * with an error whose code is {@link LOOKUP_TIMEOUT_CODE}, which fails the connection (and so the
 * request) on time. A late answer of the resolver is ignored.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';

/** Error code of a name not resolved within the deadline (c-ares' code for a DNS timeout). */
export const LOOKUP_TIMEOUT_CODE = 'ETIMEOUT';

/** The shape of `dns.lookup` that `net.connect` (and so undici) calls. */
export type LookupFunction = (
  hostname: string,
  options: LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/**
 * A `lookup` for `net.connect` that calls back within `ms` milliseconds (module doc).
 * @param ms the deadline of one resolution, in ms
 * @param base the resolver (default `dns.lookup`); tests give one that never answers
 */
export function lookupWithin(ms: number, base: LookupFunction = dnsLookup as unknown as LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    let done = false;
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      const err: NodeJS.ErrnoException = new Error(`name ${hostname} not resolved within ${ms} ms`);
      err.code = LOOKUP_TIMEOUT_CODE;
      callback(err, '');
    }, ms);
    base(hostname, options, (err, address, family) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      callback(err, address, family);
    });
  };
}
