import { LRUCache } from 'lru-cache';

/** A whole day's unique visitors, with the requests its states counted when they were merged. */
export interface DayCount {
  requests: number;
  visitors: number;
}

/**
 * The unique visitors of whole UTC days, remembered by the overview once merged from their
 * states (the largest part of a month's read: a busy day's state holds up to 65,536 keys). A
 * remembered day is used while the requests its states count are unchanged, checked at each read
 * (lines of a day can arrive late). One per process, made in Services.
 */
export interface DayVisitors {
  get(key: string): DayCount | undefined;
  set(key: string, count: DayCount): void;
  delete(key: string): void;
}

export const createDayVisitors = (): DayVisitors => new LRUCache<string, DayCount>({ max: 100_000 });
