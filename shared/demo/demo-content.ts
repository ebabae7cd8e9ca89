import type { ModelInput } from '../content/model-input.js';

/**
 * The demo organization's content: models using most field types, a section tree, authors,
 * labels and twelve entries (three categories, seven articles, two events).
 */
export const DEMO_MODELS: [string, ModelInput][] = [
  [
    'category',
    { name: 'Category', titleField: 'name', fields: [{ alias: 'name', type: 'text', required: true }, { alias: 'description', type: 'text' }] },
  ],
  [
    'article',
    {
      name: 'Article',
      titleField: 'title',
      fields: [
        { alias: 'title', type: 'text', required: true },
        { alias: 'lead', type: 'richtext' },
        { alias: 'body', type: 'richcontent' },
        { alias: 'hero', type: 'media' },
        { alias: 'section', type: 'section' },
        { alias: 'authors', type: 'author', valueType: 'list' },
        { alias: 'tags', type: 'tag', valueType: 'list' },
        { alias: 'category', type: 'reference', allowedModels: ['category'] },
        { alias: 'related', type: 'reference', valueType: 'list', allowedModels: ['article'] },
        { alias: 'readingLevel', type: 'number', numberFormat: 'int' },
        { alias: 'rating', type: 'number', numberFormat: 'decimal' },
        { alias: 'featured', type: 'boolean' },
        { alias: 'source', type: 'url' },
        { alias: 'extra', type: 'json' },
      ],
    },
  ],
  [
    'event',
    {
      name: 'Event',
      titleField: 'title',
      fields: [
        { alias: 'title', type: 'text', required: true },
        { alias: 'startsAt', type: 'datetime', required: true },
        { alias: 'venue', type: 'location' },
        { alias: 'price', type: 'number', numberFormat: 'decimal' },
        { alias: 'link', type: 'url' },
        { alias: 'about', type: 'reference', valueType: 'list' },
      ],
    },
  ],
];

export const DEMO_SECTIONS = [
  { id: 'news', title: 'News', slug: 'news', url: '/news' },
  { id: 'tech', parentId: 'news', title: 'Technology', slug: 'tech', url: '/news/tech' },
  { id: 'culture', parentId: 'news', title: 'Culture', slug: 'culture', url: '/news/culture' },
];

export const DEMO_AUTHORS = [
  { id: 'ada', firstName: 'Ada', lastName: 'Lovelace', byline: 'Ada Lovelace', profession: ['editor'], biography: 'Writes about engines and numbers.', email: 'ada@example.com', twitter: 'ada' },
  { id: 'grace', firstName: 'Grace', lastName: 'Hopper', byline: 'Grace Hopper', profession: ['reporter'], biography: 'Covers compilers and culture.', website: 'https://example.com/grace' },
];

export const DEMO_LABELS = [
  { id: 'featured', name: 'Featured', color: '#e11d48' },
  { id: 'evergreen', name: 'Evergreen', color: '#16a34a' },
];

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });

const ARTICLES = [
  ['Engines that compute', 'tech', ['ada'], ['engines', 'history'], 'cat-tech', 'How a machine of gears learned to follow a program.'],
  ['The first compiler', 'tech', ['grace'], ['compilers'], 'cat-tech', 'Turning words into machine code changed who could program.'],
  ['A bug in the relay', 'tech', ['grace'], ['debugging', 'history'], 'cat-tech', 'The moth that gave a name to every bug since.'],
  ['Poetry of numbers', 'culture', ['ada'], ['poetry'], 'cat-culture', 'Imagination is as needed in science as in art.'],
  ['Museums of machines', 'culture', ['ada', 'grace'], ['museums'], 'cat-culture', 'Where to see the engines of the past.'],
  ['Open data for cities', 'news', ['grace'], ['data'], 'cat-world', 'Cities publish their numbers; citizens read them.'],
  ['Draft: next steps', 'news', ['ada'], ['draft'], 'cat-world', 'An unpublished draft that only preview tokens see.'],
] as const;

/** Entry inputs in creation order (ids are fixed so relations between them are stable). */
export function demoEntries(siteId: string, imageId: string | null) {
  const categories = [
    { id: 'cat-tech', model: 'category', siteId, status: 'PUBLISHED' as const, fields: { name: 'Technology', description: 'Machines and code.' } },
    { id: 'cat-culture', model: 'category', siteId, status: 'PUBLISHED' as const, fields: { name: 'Culture', description: 'Art, people, ideas.' } },
    { id: 'cat-world', model: 'category', siteId, status: 'PUBLISHED' as const, fields: { name: 'World', description: 'Everything else.' } },
  ];
  const articles = ARTICLES.map(([title, section, authors, tags, category, lead], i) => ({
    id: `article-${i + 1}`,
    model: 'article',
    siteId,
    slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''),
    status: i === ARTICLES.length - 1 ? ('DRAFT' as const) : ('PUBLISHED' as const),
    publishedAt: i === ARTICLES.length - 1 ? undefined : new Date(Date.UTC(2026, 0, 5 + i * 3, 9)).toISOString(),
    labels: i === 0 ? ['featured'] : i === 3 ? ['evergreen'] : [],
    fields: {
      title,
      lead: `<p>${lead}</p>`,
      body: {
        type: 'doc',
        content: [
          { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: title }] },
          paragraph(`${lead} This demo article shows rich content with blocks, links and references.`),
          ...(imageId ? [{ type: 'cms_media', attrs: { id: imageId } }] : []),
          ...(i > 0 ? [{ type: 'cms_reference', attrs: { id: 'article-1' } }] : []),
        ],
      },
      hero: imageId ?? undefined,
      section,
      authors: [...authors],
      tags: [...tags],
      category,
      related: i > 0 ? ['article-1'] : [],
      readingLevel: 1 + (i % 3),
      rating: (3.5 + (i % 4) * 0.25).toFixed(2),
      featured: i === 0,
      source: `https://example.com/articles/${i + 1}`,
      extra: { demo: true, index: i + 1 },
    },
  }));
  const events = [
    {
      id: 'event-1',
      model: 'event',
      siteId,
      status: 'PUBLISHED' as const,
      fields: {
        title: 'Analytical Engine meetup',
        startsAt: '2026-06-01T17:00:00Z',
        venue: { address: 'Science Museum, London', latitude: '51.4978', longitude: '-0.1745' },
        price: '12.50',
        link: 'https://example.com/events/engine',
        about: ['article-1', 'article-5'],
      },
    },
    {
      id: 'event-2',
      model: 'event',
      siteId,
      status: 'PUBLISHED' as const,
      fields: { title: 'Compiler night', startsAt: '2026-07-15T18:30:00+02:00', price: 0, about: ['article-2'] },
    },
  ];
  return [...categories, ...articles, ...events];
}

/** A ready query for the delivery token. */
export const DEMO_QUERY = `{
  articleCollection(limit: 5, order: { system: { publishedAt: DESC } }) {
    total
    items {
      id
      title
      system { slug publishedAt }
      category { name }
      authors { firstName lastName }
      hero { url(transformation: { width: 640 }) }
    }
  }
}`;
