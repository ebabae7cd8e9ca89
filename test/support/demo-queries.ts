// Twenty GraphQL queries over the demo organization that touch every kind of content it holds.

/**
 * An answer with what differs by nature between two organizations masked: the organization id
 * and the signatures in asset URLs, and an asset's version id (a copy is a new upload).
 */
export function comparable(value: unknown, orgId: string): string {
  return JSON.stringify(value)
    .replaceAll(orgId, 'ORG')
    .replace(/\/(img|files)\/[A-Za-z0-9_-]+\/ORG\/([A-Za-z0-9_-]+)\/[A-Za-z0-9_-]+\//g, '/$1/SIG/ORG/$2/VERSION/');
}

export const DEMO_QUERIES = [
  `{ articleCollection(order: { system: { publishedAt: DESC } }) { total items { id title lead body_v2 { blocks { type text content attrs } entries { items { id } } } system { slug publishedAt firstPublishedAt createdAt status title metrics { wordCount imageCount } } } } }`,
  `{ articleCollection(limit: 3, order: { title: ASC }) { total items { id title readingLevel rating featured source extra tags } } }`,
  `{ articleCollection(where: { featured: { eq: true } }) { total items { id } } }`,
  `{ article(id: "article-1") { id title related { total items { id title } } category { id name } authors { id firstName lastName byline } section { id title path { id } } } }`,
  `{ article(id: "article-1") { hero { id type media { fileName title alt width height placeholder url } url } } }`,
  `{ article(id: "article-2") { hero { url(transformation: { width: 320, height: 200, resize: FILL }) } } }`,
  `{ article(id: "article-6") { title system { status } } }`,
  `{ categoryCollection(order: { name: ASC }) { total items { id name description } } }`,
  `{ eventCollection { total items { id title startsAt venue { address latitude longitude } price link about { total items { id } } } } }`,
  `{ entryCollection(order: { system: { createdAt: ASC } }) { total items { id system { modelAlias title } } } }`,
  `{ cmsSection(id: "news") { id title slug url children { total items { id title } } media { total items { id type } } references { total items { id } } } }`,
  `{ cmsSectionCollection { total items { id parentId title } } }`,
  `{ cmsAuthorCollection { total items { id firstName lastName byline biography profession email website twitter image { id } } } }`,
  `{ cmsAuthor(id: "ada") { id byline profession image { url } } }`,
  `{ cmsLabelCollection { total items { id name color } } }`,
  `{ cmsList(id: "front-page") { id name entries { total items { startAt endAt entry { id } } } } }`,
  `{ cmsAssetCollection { total items { id type fileName contentType size width height tags placeholder } } }`,
  `{ articleCollection(where: { system: { labels: { some: ["featured"] } } }) { total items { id } } }`,
  `{ articleCollection(where: { title: { contains: "compiler" } }) { total items { id title } } }`,
  `{ articleCollection(where: { section: { eq: "news", includeChildren: true } }) { total items { id } } }`,
];

/**
 * An answer as it is the same on every run: `comparable`, with times (the demo is written now),
 * asset ids (random) and the server's port masked.
 */
export function runIndependent(value: unknown, orgId: string, assetIds: readonly string[]): string {
  let text = comparable(value, orgId)
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, 'TIME')
    .replace(/http:\/\/127\.0\.0\.1:\d+\//g, 'http://HOST/');
  for (const id of assetIds) text = text.replaceAll(id, 'ASSET');
  return text;
}
