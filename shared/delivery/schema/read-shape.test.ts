import { Kind, parse, type FragmentDefinitionNode, type GraphQLResolveInfo, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { readShape } from './read-shape.js';

/** The resolve info of the query's first root field, as far as `readShape` reads it. */
function infoOf(query: string): GraphQLResolveInfo {
  const doc = parse(query);
  const operation = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const fragments = Object.fromEntries(
    doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
  );
  const root = operation.selectionSet.selections[0];
  if (root.kind !== Kind.FIELD) throw new Error('expected a field');
  return { fieldNodes: [root], fragments } as unknown as GraphQLResolveInfo;
}
const columnsOf = (query: string) => {
  const c = readShape(infoOf(query), 'items');
  return c ? [...c.columns].sort() : null;
};
const keysOf = (query: string) => [...readShape(infoOf(query), 'items')!.fieldKeys].sort();
const BASE = ['fields', 'id', 'locales', 'model_alias', 'row_id'];

describe("readShape of a collection's items", () => {
  it('reads model fields from `fields` and only the system columns asked for', () => {
    expect(
      columnsOf(`{ entryCollection { total items { id system { modelAlias publishedAt } ... on Article { title views author { name } } } } }`),
    ).toEqual([...BASE, 'published_at'].sort());
    expect(columnsOf(`{ articleCollection { items { title body { json } } } }`)).toEqual(BASE);
  });

  it('follows inline fragments and named fragments, at every level', () => {
    const query = `query { articleCollection { ...Page } }
      fragment Page on ArticleCollection { items { ...Item ... on Article { system { ... on CmsSystem { labels } } } } }
      fragment Item on Article { system { ...Sys } attrs }
      fragment Sys on CmsSystem { createdAt __typename status }`;
    expect(columnsOf(query)).toEqual([...BASE, 'attrs', 'created_at', 'labels', 'status'].sort());
  });

  it('asks for whole rows when the items read more than their own columns or a system field is unknown', () => {
    // next-entry keys and reverse relations come from the row
    expect(columnsOf(`{ articleCollection { items { relations { articleCollection { total } } } } }`)).toBeNull();
    // a system field this list does not know, directly or in a fragment
    expect(columnsOf(`{ articleCollection { items { system { somethingNew } } } }`)).toBeNull();
    expect(columnsOf(`query { articleCollection { items { system { ...S } } } } fragment S on CmsSystem { somethingNew }`)).toBeNull();
  });

  it('leaves the columns at the base set when no items are selected', () => {
    expect(columnsOf(`{ articleCollection { total } }`)).toEqual(BASE);
    expect(keysOf(`{ articleCollection { total } }`)).toEqual([]);
  });

  it('reads of `fields` only the keys of the model fields selected, over every fragment', () => {
    expect(keysOf(`{ entryCollection { items { id system { title } ... on Article { title views author { name } } ... on Author { name } } } }`)).toEqual([
      'author',
      'name',
      'title',
      'views',
    ]);
    // `body_v2` resolves the value stored under `body`; nested selections add no keys
    expect(keysOf(`query { articleCollection { items { ...A } } } fragment A on Article { body_v2 { json entries { items { id } } } tags }`)).toEqual([
      'body',
      'body_v2',
      'tags',
    ]);
    expect(keysOf(`{ articleCollection { items { id __typename attrs system { createdAt } } } }`)).toEqual([]);
  });
});

describe('readShape of an entry read by id, with the targets of its references', () => {
  const shapeOf = (query: string, references: string[] = []) => {
    const s = readShape(infoOf(query), 'own', references);
    return s ? { columns: [...s.columns].sort(), keys: [...s.fieldKeys].sort() } : null;
  };

  it("unites the entry's own selection with each reference's", () => {
    const query = `{ article(id: "a") { title system { slug } author { name system { createdAt } } cover { ... on Person { name } } } }`;
    expect(shapeOf(query)).toEqual({ columns: [...BASE, 'slug'].sort(), keys: ['author', 'cover', 'title'] });
    expect(shapeOf(query, ['author', 'cover'])).toEqual({ columns: [...BASE, 'created_at', 'slug'].sort(), keys: ['author', 'cover', 'name', 'title'] });
  });

  it('reads whole rows when the entry or one of its references selects relations', () => {
    expect(shapeOf(`{ article(id: "a") { relations { __typename } } }`)).toBeNull();
    expect(shapeOf(`{ article(id: "a") { title author { relations { __typename } } } }`, ['author'])).toBeNull();
    expect(shapeOf(`{ article(id: "a") { title author { relations { __typename } } } }`)).not.toBeNull();
  });
});
