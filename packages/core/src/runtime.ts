// core: default clock and id generator. Ids are `prefix_` + a ULID, so that sort keys built from them sort by time.
import { monotonicFactory } from 'ulid';
import type { Clock, IdGenerator, IdPrefix } from './ports.js';

export const systemClock: Clock = { now: () => new Date() };

export function ulidIds(): IdGenerator {
  const ulid = monotonicFactory();
  return { next: (prefix: IdPrefix) => `${prefix}_${ulid().toLowerCase()}` };
}

/** Seconds from one time to another, to the millisecond. */
export const elapsedSeconds = (from: Date, to: Date) => Math.round(to.getTime() - from.getTime()) / 1000;
