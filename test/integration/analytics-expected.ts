import { countries } from 'countries-list';
import { AGENTS, type TrafficEvent } from '../fixtures/cdn-logs/traffic.js';

// The analytics reports computed straight from the events pushed, for tests to compare the
// endpoints' answers with: every figure of every windowed report.
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

type Bucket = { name: string; count: number };
export function topN(values: string[], n: number, total: number) {
  const counts = new Map<string, number>();
  for (const v of values) if (v !== '') counts.set(v, (counts.get(v) ?? 0) + 1);
  const buckets: Bucket[] = [...counts]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, n);
  return { otherCount: total - buckets.reduce((s, b) => s + b.count, 0), buckets };
}

function floorTo(interval: string, ms: number) {
  if (interval === 'minute') return Math.floor(ms / 60_000) * 60_000;
  if (interval === 'hour') return Math.floor(ms / HOUR) * HOUR;
  if (interval === 'day') return Math.floor(ms / DAY) * DAY;
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}
function next(interval: string, ms: number) {
  if (interval === 'minute') return ms + 60_000;
  if (interval === 'hour') return ms + HOUR;
  if (interval === 'day') return ms + DAY;
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Bots with what ua-parser-js reports for them and the name the bot list gives them. */
export const BOTS = [
  { ua: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', device: 'other', browser: 'Other', os: 'Other', bot: 'Googlebot' },
  { ua: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', device: 'other', browser: 'Other', os: 'Other', bot: 'bingbot' },
  { ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)', device: 'desktop', browser: 'WebKit', os: 'Other', bot: 'GPTBot' },
];
export const agentOf = new Map([...AGENTS.map((a) => [a.ua, a] as const), ...BOTS.map((a) => [a.ua, a] as const)]);
/** The bot names, per user agent; curl counts as a bot too. */
export const botOf = new Map([...BOTS.map((b) => [b.ua, b.bot] as const), ['curl/8.5.0', 'curl']]);
export const isBot = (e: TrafficEvent) => botOf.has(e.userAgent);
/** Nearest rank as ClickHouse's quantileTiming takes it (exact below 1,024 ms): the value at floor(p·n) of the sorted times. */
const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]);
/** A visitor is one IP and user agent on one UTC day (the key's salt changes daily). */
export const visitors = (events: TrafficEvent[]) => new Set(events.map((e) => `${Math.floor(e.timestampMs / DAY)}|${e.clientIp}|${e.userAgent}`)).size;
const ratio = (hits: number, misses: number) => (hits + misses === 0 ? 0 : Math.round((hits / (hits + misses)) * 10_000) / 10_000);
export const continentOf = (c: string) => (countries as Record<string, { continent: string }>)[c]?.continent ?? 'XX';
export const refererHost = (r: string) => (r === '' ? '' : new URL(r).hostname);

export function expected(events: TrafficEvent[], fromMs: number, toMs: number, interval: string, n: number, excludeBots = false) {
  const window = events.filter((e) => e.timestampMs >= fromMs && e.timestampMs < toMs);
  const inRange = excludeBots ? window.filter((e) => !isBot(e)) : window;
  const total = inRange.length;
  const serve = inRange.reduce((s, e) => s + e.serveTimeMs, 0);
  const perInterval: Array<Record<string, unknown>> = [];
  for (let t = floorTo(interval, fromMs); t < toMs; t = next(interval, t)) {
    const inside = inRange.filter((e) => floorTo(interval, e.timestampMs) === t);
    const times = inside.map((e) => e.serveTimeMs).sort((a, b) => a - b);
    const hits = inside.filter((e) => e.cache === 'HIT').length;
    const misses = inside.filter((e) => e.cache === 'MISS').length;
    perInterval.push({
      time: new Date(t).toISOString(),
      bytes: inside.reduce((s, e) => s + e.bytes, 0),
      numberOfRequests: inside.length,
      hits,
      misses,
      hitRatio: ratio(hits, misses),
      p50ServeTime: percentile(times, 0.5),
      p95ServeTime: percentile(times, 0.95),
      p99ServeTime: percentile(times, 0.99),
      uniqueVisitors: visitors(inside),
    });
  }
  const bots = window.filter(isBot);
  const inClass = (c: number) => inRange.filter((e) => Math.floor(e.status / 100) === c);
  const country = (e: TrafficEvent) => e.country ?? 'XX';
  const continents = topN(inRange.map((e) => continentOf(country(e))), n, total);
  const countriesGroup = topN(inRange.map(country), n, total);
  return {
    overview: {
      averageServeTime: total === 0 ? 0 : Math.round(serve / total),
      totalBytes: inRange.reduce((s, e) => s + e.bytes, 0),
      hits: inRange.filter((e) => e.cache === 'HIT').length,
      misses: inRange.filter((e) => e.cache === 'MISS').length,
      topReferers: topN(inRange.map((e) => refererHost(e.referer)), n, total),
      aggregatesPerInterval: perInterval,
      uniqueVisitors: visitors(inRange),
      botRequests: excludeBots ? 0 : bots.length,
    },
    '/geo': { continents, countries: countriesGroup },
    '/path': { paths: topN(inRange.map((e) => e.path), n, total), continents, countries: countriesGroup },
    '/device': {
      devices: topN(inRange.map((e) => agentOf.get(e.userAgent)!.device), n, total),
      browsers: topN(inRange.map((e) => agentOf.get(e.userAgent)!.browser), n, total),
      operatingSystems: topN(inRange.map((e) => agentOf.get(e.userAgent)!.os), n, total),
      continents,
      countries: countriesGroup,
    },
    '/referers': { referers: topN(inRange.map((e) => refererHost(e.referer)), n, total), continents, countries: countriesGroup },
    '/status': {
      statusClasses: { otherCount: 0, buckets: [1, 2, 3, 4, 5].map((c) => ({ name: `${c}xx`, count: inClass(c).length })) },
      statusCodes: topN(inRange.map((e) => String(e.status)), n, total),
      clientErrorPaths: topN(inClass(4).map((e) => e.path), n, inClass(4).length),
      serverErrorPaths: topN(inClass(5).map((e) => e.path), n, inClass(5).length),
    },
    '/bots': {
      humanRequests: window.length - bots.length,
      humanBytes: window.filter((e) => !isBot(e)).reduce((s, e) => s + e.bytes, 0),
      botRequests: excludeBots ? 0 : bots.length,
      botBytes: excludeBots ? 0 : bots.reduce((s, e) => s + e.bytes, 0),
      topBots: excludeBots ? { otherCount: 0, buckets: [] } : topN(bots.map((e) => botOf.get(e.userAgent)!), n, bots.length),
    },
  };
}

