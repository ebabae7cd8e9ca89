/**
 * Surrogate keys: names for what a delivery response read, sent in `Surrogate-Key` (Fastly,
 * space-separated) and `Cache-Tag` (Cloudflare, comma-separated), so a CDN can purge every cached
 * response that read something when it changes. Every key starts with the organization's id:
 * organizations share a CDN, and one must never purge (or learn) another's keys.
 *
 * - `o.<org>`: every delivery response of the org (a model change purges it).
 * - `o.<org>.e.<entryId>`: a response that read that entry by id (or looked for it).
 * - `o.<org>.m.<alias>`: a response that listed entries of one model (a collection).
 * - `o.<org>.entries`: a response that listed entries of any model (cross-model collections,
 *   relation pages): any entry published or withdrawn purges it.
 * - `o.<org>.a.<assetId>`: a response that read that asset (and every image or file of it).
 * - `o.<org>.cms.<kind>`: a response that read sections, authors, labels, lists or listed assets.
 */
export type CmsKind = 'sections' | 'authors' | 'labels' | 'lists' | 'assets';

export const orgKey = (orgId: string) => `o.${orgId}`;
export const entryKey = (orgId: string, id: string) => `o.${orgId}.e.${id}`;
export const modelKey = (orgId: string, alias: string) => `o.${orgId}.m.${alias}`;
export const anyEntriesKey = (orgId: string) => `o.${orgId}.entries`;
export const assetKey = (orgId: string, id: string) => `o.${orgId}.a.${id}`;
export const cmsKey = (orgId: string, kind: CmsKind) => `o.${orgId}.cms.${kind}`;

/**
 * Keys longer than this many bytes in one header are folded (`boundedKeys`): Fastly takes up to
 * 16,384 bytes of Surrogate-Key and Cloudflare 16 KB of Cache-Tag; half of that leaves room for
 * proxies with smaller header buffers (nginx's default is 4–8 KB per line).
 */
export const SURROGATE_KEY_BYTES = 8000;

/** What one delivery request read; filled by the loaders and collection resolvers as they read. */
export class ReadSet {
  readonly entries = new Map<string, string | null>();
  readonly models = new Set<string>();
  anyEntries = false;
  readonly assets = new Set<string>();
  readonly cms = new Set<CmsKind>();

  /** An entry read (or looked for) by id; its model alias when it was found. */
  entry(id: string, model: string | null = null): void {
    if (model !== null || !this.entries.has(id)) this.entries.set(id, model);
  }

  /** A page of entries: of one model, or of any (null). */
  collection(model: string | null): void {
    if (model === null) this.anyEntries = true;
    else this.models.add(model);
  }

  asset(id: string): void {
    this.assets.add(id);
  }

  cmsKind(kind: CmsKind): void {
    this.cms.add(kind);
  }

  /**
   * Traffic figures were read (system.traffic, an order by traffic): they change without any
   * content write, so no purge reaches them — the answer is not kept by the response cache and
   * shared caches keep it a minute at most.
   */
  traffic = false;

  /** The keys of a response answered from Folio's response cache: those of its first execution. */
  fromCache: readonly string[] | null = null;
}

/**
 * The keys of a response, at most `limit` bytes joined: the org key first, then the collection
 * and CMS keys, then entries and assets by id. When the ids do not fit, entries fold into their
 * model's key (an unknown model into `entries`) and assets into `cms.assets` — a purge then
 * reaches more responses than it must, never fewer; when even that does not fit, the org key alone.
 */
export function surrogateKeysOf(orgId: string, reads: ReadSet, limit = SURROGATE_KEY_BYTES): readonly string[] {
  if (reads.fromCache) return reads.fromCache;
  const head = new Set<string>([orgKey(orgId)]);
  if (reads.anyEntries) head.add(anyEntriesKey(orgId));
  for (const m of reads.models) head.add(modelKey(orgId, m));
  for (const k of reads.cms) head.add(cmsKey(orgId, k));
  const ids = new Set<string>();
  for (const id of reads.entries.keys()) ids.add(entryKey(orgId, id));
  for (const id of reads.assets) ids.add(assetKey(orgId, id));
  const all = [...head, ...ids];
  if (byteLength(all) <= limit) return all;

  const folded = new Set(head);
  for (const model of reads.entries.values()) folded.add(model === null ? anyEntriesKey(orgId) : modelKey(orgId, model));
  if (reads.assets.size > 0) folded.add(cmsKey(orgId, 'assets'));
  const list = [...folded];
  return byteLength(list) <= limit ? list : [orgKey(orgId)];
}

const byteLength = (keys: string[]) => keys.reduce((n, k) => n + Buffer.byteLength(k) + 1, 0);

/** The keys of an image or file of an asset, and the two headers that carry them. */
export function assetSurrogate(orgId: string, assetId: string): { readonly keys: readonly string[]; readonly headers: Readonly<Record<'Surrogate-Key' | 'Cache-Tag', string>> } {
  const keys = Object.freeze([orgKey(orgId), assetKey(orgId, assetId)]);
  return Object.freeze({ keys, headers: Object.freeze({ 'Surrogate-Key': keys.join(' '), 'Cache-Tag': keys.join(',') }) });
}
