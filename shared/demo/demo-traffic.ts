/**
 * A day of made-up CDN traffic for the demo distribution, as canonical NDJSON log lines, so the
 * analytics endpoints have something to show on a first start. Deterministic (seeded), so two
 * first starts show the same shape.
 */
// the articles' pages are /{section}/{slug} (the demo site's URL pattern), so they count per entry too
const PATHS = ['/', '/news/open-data-for-cities', '/tech/the-first-compiler', '/culture/poetry-of-numbers', '/img/hero.jpg', '/app.js', '/styles.css'];
const COUNTRIES = ['DE', 'FR', 'US', 'GB', 'BR', 'JP', 'IN', 'NG', 'AU', 'SE'];
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
];
const REFERERS = ['https://www.google.com/', 'https://news.ycombinator.com/', 'https://t.co/abc', '', ''];

/** Mulberry32: a small seeded generator; the demo needs repeatability, not quality. */
function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function demoTrafficNdjson(options: { host: string; now: Date; lines?: number }): Buffer {
  const random = seeded(20261121);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const lines: string[] = [];
  const count = options.lines ?? 2000;
  const dayMs = 24 * 3600 * 1000;
  for (let i = 0; i < count; i++) {
    const path = pick(PATHS);
    const hit = random() < 0.8;
    lines.push(
      JSON.stringify({
        timestamp: new Date(options.now.getTime() - Math.floor(random() * dayMs)).toISOString(),
        clientIp: `203.0.113.${Math.floor(random() * 254) + 1}`,
        method: 'GET',
        host: options.host,
        path,
        status: random() < 0.97 ? 200 : 404,
        bytes: path.endsWith('.jpg') ? 80_000 + Math.floor(random() * 40_000) : 2_000 + Math.floor(random() * 30_000),
        serveTimeMs: hit ? 2 + Math.floor(random() * 20) : 40 + Math.floor(random() * 200),
        cacheStatus: hit ? 'HIT' : 'MISS',
        referer: pick(REFERERS),
        userAgent: pick(AGENTS),
        country: pick(COUNTRIES),
      }),
    );
  }
  return Buffer.from(lines.join('\n') + '\n');
}
