import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/**
 * Output groups end to end: management writes checked against the catalog,
 * the API's list and detail shapes, paging, version segment, ids, auth and tenancy.
 */

type JsonType = 'string' | 'int32' | 'boolean' | 'array' | 'object';

/** The API's tables, field by field, with the JSON type each must have. */
const listItemFields: Record<string, JsonType> = { id: 'string', name: 'string', customName: 'string', type: 'int32', description: 'string' };
const detailFields: Record<string, JsonType> = {
  name: 'string',
  customName: 'string',
  segmentControl: 'int32',
  segmentControlOptions: 'array',
  segmentLength: 'int32',
  minSegmentLength: 'int32',
  type: 'int32',
  outputGroupsTypes: 'object',
  typeOptions: 'array',
  categoryOptions: 'array',
  hasDRM: 'boolean',
  drmList: 'object',
  groupDRM: 'object',
  description: 'string',
  emptyOutputModel: 'object',
  outputs: 'array',
};
const optionFields: Record<string, JsonType> = { id: 'int32', value: 'string', enabled: 'boolean' };
const outputModelFields: Record<string, JsonType> = {
  name: 'string',
  nameModifier: 'string',
  presetId: 'int32',
  presetName: 'string',
  videoCodec: 'string',
  audioCodec: 'string',
};
const groupDrmFields: Record<string, JsonType> = {
  shakaPackagerKeyProviderType: 'int32',
  protectionSchemaType: 'int32',
  protectionSchemaOptions: 'array',
  encryptionAlgorithmType: 'int32',
  label: 'string',
  clearLead: 'int32',
};
const resultInfoFields: Record<string, JsonType> = {
  totalCount: 'int32',
  pageIndex: 'int32',
  pageSize: 'int32',
  totalPages: 'int32',
  hasNextPage: 'boolean',
  hasPreviousPage: 'boolean',
};

function typeOf(value: unknown): JsonType | 'other' {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number' && Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31) return 'int32';
  if (Array.isArray(value)) return 'array';
  if (value !== null && typeof value === 'object') return 'object';
  return 'other';
}

/** Every field present with its JSON type (extra fields are allowed). */
function expectFields(value: unknown, fields: Record<string, JsonType>, where: string) {
  expect(typeOf(value), where).toBe('object');
  const obj = value as Record<string, unknown>;
  for (const [name, type] of Object.entries(fields)) expect(typeOf(obj[name]), `${where}.${name}`).toBe(type);
}

const plainBody = {
  customName: 'Web HLS',
  description: 'Adaptive HLS for the web player',
  type: 1,
  segmentControl: 1,
  segmentLength: 6,
  categories: [1, 5],
  hasDRM: false,
  outputs: [
    { name: '1080p', nameModifier: '_1080p', presetId: 2 },
    { name: '720p', nameModifier: '_720p', presetId: 4 },
  ],
};

const drmBody = {
  name: 'Protected DASH',
  type: 2,
  segmentControl: 2,
  segmentLength: 4,
  minSegmentLength: 3,
  hasDRM: true,
  drm: {
    providers: [1, 2],
    widevineAlgorithm: 2,
    shakaPackagerKeyProviderType: 1,
    protectionSchemaType: 1,
    encryptionAlgorithmType: 3,
    label: 'premium',
    clearLead: 10,
  },
  outputs: [{ name: 'Audio', nameModifier: '_audio', presetId: 8 }],
};

let app: TestApp;
let orgA: TestOrg;
let orgB: TestOrg;
let videoA: string;
let videoB: string;
let analyticsA: string;
let projectA: string;
let pagedProject: string;
let projectB: string;

const manageBase = (projectId: string) => `/management/v1/projects/${projectId}/outputgroups`;
const readBase = (projectId: string) => `/api/v1/projects/${projectId}/outputgroups`;

async function createProject(org: TestOrg, name: string): Promise<string> {
  const res = await app.json('/management/v1/projects', { token: org.manageToken, body: { name } });
  expect(res.status).toBe(201);
  return res.body.result.id as string;
}

async function createGroup(org: TestOrg, projectId: string, body: unknown): Promise<string> {
  const res = await app.json(manageBase(projectId), { token: org.manageToken, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.result.id as string;
}

/** A failed call: the status, and the envelope with readable reasons. */
function expectFailure(res: { status: number; body: any }, status: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ success: false, result: null });
  expect(res.body.errors.length).toBeGreaterThan(0);
}

beforeAll(async () => {
  // Output groups run no jobs.
  app = await startTestApp({ workers: false });
  [orgA, orgB] = await Promise.all([app.createOrg('Output groups A'), app.createOrg('Output groups B')]);
  [videoA, videoB, analyticsA] = await Promise.all([
    app.createToken(orgA.manageToken, ['video']),
    app.createToken(orgB.manageToken, ['video']),
    app.createToken(orgA.manageToken, ['analytics']),
  ]);
  projectA = await createProject(orgA, 'Main');
  pagedProject = await createProject(orgA, 'Many groups');
  projectB = await createProject(orgB, 'Other tenant');
});

afterAll(async () => {
  await app?.close();
});

describe('create and read', () => {
  it('creates a group (201, Location) and serves every field of the detail', async () => {
    const created = await app.json(manageBase(projectA), { token: orgA.manageToken, body: plainBody });
    expect(created.status).toBe(201);
    expect(created.body.success).toBe(true);
    const id = created.body.result.id as string;
    expect(id).toMatch(/^\d+$/);
    expect(created.headers.get('location')).toBe(`${readBase(projectA)}/${id}`);

    const res = await app.json(`${readBase(projectA)}/${id}`, { token: videoA });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, errors: [], messages: [] });
    expectFields(res.body.resultInfo, resultInfoFields, 'resultInfo');
    expect(Array.isArray(res.body.result)).toBe(true);
    expect(res.body.result).toHaveLength(1);
    const detail = res.body.result[0];
    expect(detail).toEqual(created.body.result);

    expectFields(detail, detailFields, 'detail');
    for (const list of ['segmentControlOptions', 'typeOptions', 'categoryOptions'] as const) {
      expect(detail[list].length).toBeGreaterThan(0);
      detail[list].forEach((o: unknown, i: number) => expectFields(o, optionFields, `${list}[${i}]`));
    }
    for (const [key, code] of Object.entries(detail.outputGroupsTypes)) {
      expect(typeof key).toBe('string');
      expect(typeOf(code)).toBe('int32');
    }
    expectFields(detail.drmList, { providers: 'array', widevineAlgorithm: 'object', rawKey: 'object' }, 'drmList');
    expectFields(detail.drmList.widevineAlgorithm, { widevineId: 'int32', algorithms: 'array' }, 'widevineAlgorithm');
    detail.drmList.widevineAlgorithm.algorithms.forEach((a: unknown, i: number) =>
      expectFields(a, { id: 'int32', type: 'string', value: 'string' }, `algorithms[${i}]`),
    );
    expectFields(detail.drmList.rawKey, { rawKeyId: 'int32', labels: 'array' }, 'rawKey');
    expectFields(detail.groupDRM, groupDrmFields, 'groupDRM');
    detail.groupDRM.protectionSchemaOptions.forEach((o: unknown, i: number) => expectFields(o, optionFields, `protectionSchemaOptions[${i}]`));
    expectFields(detail.emptyOutputModel, outputModelFields, 'emptyOutputModel');
    expect(detail.outputs).toHaveLength(2);
    detail.outputs.forEach((o: unknown, i: number) => expectFields(o, outputModelFields, `outputs[${i}]`));

    // The values: choices marked, defaults filled from the catalog, presets expanded.
    expect(detail).toMatchObject({
      name: 'Apple HLS',
      customName: 'Web HLS',
      description: 'Adaptive HLS for the web player',
      type: 1,
      segmentControl: 1,
      segmentLength: 6,
      minSegmentLength: 2,
      hasDRM: false,
    });
    expect(detail.outputGroupsTypes).toMatchObject({ HLS: 1, DASH: 2, CMAF: 3, MP4: 4 });
    const chosen = (list: { id: number; enabled: boolean }[]) => list.filter((o) => o.enabled).map((o) => o.id);
    expect(chosen(detail.typeOptions)).toEqual([1]);
    expect(chosen(detail.segmentControlOptions)).toEqual([1]);
    expect(chosen(detail.categoryOptions)).toEqual([1, 5]);
    expect(chosen(detail.groupDRM.protectionSchemaOptions)).toEqual([]);
    expect(detail.drmList.providers).toEqual([]);
    expect(detail.outputs[0]).toEqual({ name: '1080p', nameModifier: '_1080p', presetId: 2, presetName: '1080p H.264', videoCodec: 'h264', audioCodec: 'aac' });
    expect(detail.emptyOutputModel).toEqual({ name: '', nameModifier: '', presetId: 0, presetName: '', videoCodec: '', audioCodec: '' });
  });

  it('renders the DRM choices in drmList and groupDRM', async () => {
    const id = await createGroup(orgA, projectA, drmBody);
    const res = await app.json(`${readBase(projectA)}/${id}`, { token: videoA });
    expect(res.status).toBe(200);
    const detail = res.body.result[0];
    expect(detail).toMatchObject({ name: 'Protected DASH', type: 2, segmentControl: 2, segmentLength: 4, minSegmentLength: 3, hasDRM: true });
    expect(detail.drmList.providers).toEqual([
      { id: 1, name: 'Widevine' },
      { id: 2, name: 'PlayReady' },
    ]);
    expect(detail.drmList.widevineAlgorithm.widevineId).toBe(2);
    for (const a of detail.drmList.widevineAlgorithm.algorithms) expect(a.type).toBe(a.value);
    expect(detail.drmList.rawKey).toEqual({ rawKeyId: 0, labels: [] });
    expect(detail.groupDRM).toMatchObject({
      shakaPackagerKeyProviderType: 1,
      protectionSchemaType: 1,
      encryptionAlgorithmType: 3,
      label: 'premium',
      clearLead: 10,
    });
    expect(detail.groupDRM.protectionSchemaOptions.map((o: { value: string }) => o.value)).toEqual(['cenc', 'cens', 'cbc1', 'cbcs']);
    expect(detail.groupDRM.protectionSchemaOptions.filter((o: { enabled: boolean }) => o.enabled).map((o: { id: number }) => o.id)).toEqual([1]);
    expect(detail.outputs[0]).toMatchObject({ presetId: 8, videoCodec: '', audioCodec: 'aac' });
  });

  it('renders raw keys with their labels', async () => {
    const id = await createGroup(orgA, projectA, {
      type: 3,
      segmentControl: 1,
      segmentLength: 2,
      hasDRM: true,
      drm: { providers: [3], rawKeyLabels: ['SD', 'HD'], shakaPackagerKeyProviderType: 3, protectionSchemaType: 4, encryptionAlgorithmType: 2 },
      outputs: [],
    });
    const detail = (await app.json(`${readBase(projectA)}/${id}`, { token: videoA })).body.result[0];
    expect(detail.drmList.rawKey).toEqual({ rawKeyId: 3, labels: ['SD', 'HD'] });
    expect(detail.drmList.widevineAlgorithm.widevineId).toBe(0);
    expect(detail.groupDRM).toMatchObject({ shakaPackagerKeyProviderType: 3, protectionSchemaType: 4, clearLead: 0, label: '' });
    expect(detail.outputs).toEqual([]);
  });
});

describe('replace and delete', () => {
  it('PUT replaces every field, DELETE removes the group', async () => {
    const id = await createGroup(orgA, projectA, drmBody);
    const put = await app.json(`${manageBase(projectA)}/${id}`, { method: 'PUT', token: orgA.manageToken, body: { ...plainBody, type: 4, customName: 'Renamed' } });
    expect(put.status).toBe(200);
    expect(put.body.result).toMatchObject({ id, name: 'File MP4', customName: 'Renamed', type: 4, hasDRM: false });

    const read = (await app.json(`${readBase(projectA)}/${id}`, { token: videoA })).body.result[0];
    expect(read).toEqual(put.body.result);
    expect(read.groupDRM).toMatchObject({ shakaPackagerKeyProviderType: 0, protectionSchemaType: 0, encryptionAlgorithmType: 0, clearLead: 0 });
    expect(read.drmList.providers).toEqual([]);

    const del = await app.json(`${manageBase(projectA)}/${id}`, { method: 'DELETE', token: orgA.manageToken });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ success: true, result: { id } });
    expectFailure(await app.json(`${readBase(projectA)}/${id}`, { token: videoA }), 404);
    expectFailure(await app.json(`${manageBase(projectA)}/${id}`, { method: 'DELETE', token: orgA.manageToken }), 404);
    expectFailure(await app.json(`${manageBase(projectA)}/${id}`, { method: 'PUT', token: orgA.manageToken, body: plainBody }), 404);
  });

  it('PUT with an invalid body changes nothing', async () => {
    const id = await createGroup(orgA, projectA, plainBody);
    const res = await app.json(`${manageBase(projectA)}/${id}`, { method: 'PUT', token: orgA.manageToken, body: { ...plainBody, type: 99 } });
    expectFailure(res, 422);
    expect(res.body.errors.some((e: string) => e.startsWith('type:'))).toBe(true);
    expect((await app.json(`${readBase(projectA)}/${id}`, { token: videoA })).body.result[0].type).toBe(1);
  });
});

describe('validation', () => {
  const cases: [string, unknown, string][] = [
    ['an unknown type', { ...plainBody, type: 42 }, 'type:'],
    ['an unknown segment control', { ...plainBody, segmentControl: 9 }, 'segmentControl:'],
    ['an unknown category id', { ...plainBody, categories: [1, 77] }, 'categories[1]:'],
    ['segmentLength below minSegmentLength', { ...plainBody, segmentLength: 3, minSegmentLength: 4 }, 'segmentLength:'],
    ['segmentLength below the default minimum', { ...plainBody, segmentLength: 1 }, 'segmentLength:'],
    ['DRM settings without hasDRM', { ...drmBody, hasDRM: false }, 'drm:'],
    ['hasDRM without DRM settings', { ...plainBody, hasDRM: true }, 'drm:'],
    ['a negative clearLead', { ...drmBody, drm: { ...drmBody.drm, clearLead: -5 } }, 'drm.clearLead:'],
    ['an unknown DRM provider', { ...drmBody, drm: { ...drmBody.drm, providers: [1, 2, 6] } }, 'drm.providers[2]:'],
    ['an unknown Widevine algorithm', { ...drmBody, drm: { ...drmBody.drm, widevineAlgorithm: 12 } }, 'drm.widevineAlgorithm:'],
    ['an unknown protection scheme', { ...drmBody, drm: { ...drmBody.drm, protectionSchemaType: 0 } }, 'drm.protectionSchemaType:'],
    ['an unknown encryption algorithm', { ...drmBody, drm: { ...drmBody.drm, encryptionAlgorithmType: 4 } }, 'drm.encryptionAlgorithmType:'],
    ['an unknown key provider', { ...drmBody, drm: { ...drmBody.drm, shakaPackagerKeyProviderType: 4 } }, 'drm.shakaPackagerKeyProviderType:'],
    [
      'an unknown raw-key label',
      { ...drmBody, drm: { ...drmBody.drm, widevineAlgorithm: undefined, shakaPackagerKeyProviderType: 3, rawKeyLabels: ['HD', 'XL'] } },
      'drm.rawKeyLabels[1]:',
    ],
    ['an unknown preset', { ...plainBody, outputs: [{ name: 'x', nameModifier: '_x', presetId: 999 }] }, 'outputs[0].presetId:'],
  ];

  it.each(cases)('rejects %s with 422 naming the field', async (_label, body, field) => {
    const res = await app.json(manageBase(projectA), { token: orgA.manageToken, body });
    expectFailure(res, 422);
    expect(res.body.errors.some((e: string) => e.startsWith(field)), res.body.errors.join(' | ')).toBe(true);
  });

  it.each<[string, unknown, string]>([
    ['a string where an int32 belongs', { ...plainBody, type: '1' }, 'type:'],
    ['a fractional number', { ...plainBody, segmentLength: 6.5 }, 'segmentLength:'],
    ['a number beyond int32', { ...plainBody, segmentLength: 2 ** 31 }, 'segmentLength:'],
    ['an unknown key', { ...plainBody, colour: 'red' }, 'body:'],
    ['a missing required field', { ...plainBody, segmentLength: undefined }, 'segmentLength:'],
    ['a non-object body', [1, 2], 'body:'],
  ])('rejects %s with 400', async (_label, body, field) => {
    const res = await app.json(manageBase(projectA), { token: orgA.manageToken, body });
    expectFailure(res, 400);
    expect(res.body.errors.some((e: string) => e.startsWith(field)), res.body.errors.join(' | ')).toBe(true);
  });

  it('fields with an obvious empty value may be omitted: no hasDRM means DRM off (or on with drm), no outputs means none', async () => {
    const { hasDRM: _h, outputs: _o, ...minimal } = plainBody;
    const res = await app.json(manageBase(projectA), { token: orgA.manageToken, body: minimal });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const detail = (await app.json(`${readBase(projectA)}/${res.body.result.id}`, { token: videoA })).body.result[0];
    expect(detail).toMatchObject({ hasDRM: false, outputs: [] });
    const { hasDRM: _d, ...withDrm } = drmBody;
    const protectedGroup = await app.json(manageBase(projectA), { token: orgA.manageToken, body: withDrm });
    expect(protectedGroup.status, JSON.stringify(protectedGroup.body)).toBe(201);
    expect((await app.json(`${readBase(projectA)}/${protectedGroup.body.result.id}`, { token: videoA })).body.result[0].hasDRM).toBe(true);
  });

  it('rejects invalid JSON with 400', async () => {
    const res = await app.json(manageBase(projectA), {
      token: orgA.manageToken,
      rawBody: '{"type": 1,',
      headers: { 'content-type': 'application/json' },
      method: 'POST',
    });
    expectFailure(res, 400);
  });
});

describe('list and paging', () => {
  const total = 45;
  let ids: string[] = [];

  beforeAll(async () => {
    ids = [];
    // Sequential, so creation order (and so list order) is known.
    for (let i = 0; i < total; i++) {
      ids.push(await createGroup(orgA, pagedProject, { ...plainBody, customName: `Group ${i}`, description: `d${i}`, type: (i % 4) + 1 }));
    }
  });

  it('pages with the default size and fills resultInfo', async () => {
    const first = await app.json(readBase(pagedProject), { token: videoA });
    expect(first.status).toBe(200);
    expect(first.body.resultInfo).toEqual({ totalCount: total, pageIndex: 1, pageSize: 20, totalPages: 3, hasNextPage: true, hasPreviousPage: false });
    expect(first.body.result).toHaveLength(20);
    first.body.result.forEach((item: unknown, i: number) => expectFields(item, listItemFields, `result[${i}]`));
    expect(first.body.result[0]).toEqual({ id: ids[0], name: 'Apple HLS', customName: 'Group 0', type: 1, description: 'd0' });
    expect(first.body.result[1]).toMatchObject({ id: ids[1], name: 'MPEG-DASH', type: 2 });

    const middle = await app.json(`${readBase(pagedProject)}?pageIndex=2`, { token: videoA });
    expect(middle.body.resultInfo).toMatchObject({ pageIndex: 2, hasNextPage: true, hasPreviousPage: true });
    expect(middle.body.result.map((g: { id: string }) => g.id)).toEqual(ids.slice(20, 40));

    const last = await app.json(`${readBase(pagedProject)}?pageIndex=3`, { token: videoA });
    expect(last.body.resultInfo).toMatchObject({ pageIndex: 3, totalPages: 3, hasNextPage: false, hasPreviousPage: true });
    expect(last.body.result.map((g: { id: string }) => g.id)).toEqual(ids.slice(40));
  });

  it('honours pageSize and answers an empty page past the end', async () => {
    const page = await app.json(`${readBase(pagedProject)}?pageIndex=5&pageSize=10`, { token: videoA });
    expect(page.body.resultInfo).toEqual({ totalCount: total, pageIndex: 5, pageSize: 10, totalPages: 5, hasNextPage: false, hasPreviousPage: true });
    expect(page.body.result.map((g: { id: string }) => g.id)).toEqual(ids.slice(40, 45));

    const beyond = await app.json(`${readBase(pagedProject)}?pageIndex=9&pageSize=10`, { token: videoA });
    expect(beyond.status).toBe(200);
    expect(beyond.body.result).toEqual([]);
    expect(beyond.body.resultInfo).toMatchObject({ totalCount: total, hasNextPage: false, hasPreviousPage: true });
  });

  it('lists an empty project', async () => {
    const empty = await createProject(orgA, 'Empty');
    const res = await app.json(readBase(empty), { token: videoA });
    expect(res.body.result).toEqual([]);
    expect(res.body.resultInfo).toEqual({ totalCount: 0, pageIndex: 1, pageSize: 20, totalPages: 0, hasNextPage: false, hasPreviousPage: false });
  });

  it.each(['pageIndex=0', 'pageIndex=x', 'pageSize=0', 'pageSize=101', 'pageSize=-1'])('rejects %s with 400', async (query) => {
    expectFailure(await app.json(`${readBase(pagedProject)}?${query}`, { token: videoA }), 400);
  });
});

describe('paths and ids', () => {
  let id: string;
  beforeAll(async () => {
    id = await createGroup(orgA, projectA, plainBody);
  });

  it('serves only version v1; other versions are the global 404 envelope', async () => {
    expect((await app.json(`${readBase(projectA)}/${id}`, { token: videoA })).status).toBe(200);
    for (const version of ['v2', 'v0', 'vx', '1']) {
      expectFailure(await app.json(`/api/${version}/projects/${projectA}/outputgroups`, { token: videoA }), 404);
      expectFailure(await app.json(`/api/${version}/projects/${projectA}/outputgroups/${id}`, { token: videoA }), 404);
    }
  });

  it.each(['abc', '1.5', '1e3', '2147483648', '-2147483649', '99999999999'])('answers 400 for the id %s', async (bad) => {
    expectFailure(await app.json(`${readBase(projectA)}/${bad}`, { token: videoA }), 400);
    expectFailure(await app.json(`${manageBase(projectA)}/${bad}`, { method: 'PUT', token: orgA.manageToken, body: plainBody }), 400);
    expectFailure(await app.json(`${manageBase(projectA)}/${bad}`, { method: 'DELETE', token: orgA.manageToken }), 400);
  });

  it.each(['2147483647', '0', '-1'])('answers 404 for the unknown id %s', async (unknown) => {
    expectFailure(await app.json(`${readBase(projectA)}/${unknown}`, { token: videoA }), 404);
  });

  it('answers 404 for an unknown or malformed project', async () => {
    const unknown = '6f1d2c3b-4a59-4e7d-8c9b-0a1b2c3d4e5f';
    for (const projectId of [unknown, 'not-a-uuid']) {
      expectFailure(await app.json(readBase(projectId), { token: videoA }), 404);
      expectFailure(await app.json(`${readBase(projectId)}/${id}`, { token: videoA }), 404);
      expectFailure(await app.json(manageBase(projectId), { token: orgA.manageToken, body: plainBody }), 404);
    }
  });

  it('keeps a group to its own project', async () => {
    // ids are numbered per project: a project without groups has none of them
    const empty = await createProject(orgA, 'No groups');
    expectFailure(await app.json(`${readBase(empty)}/${id}`, { token: videoA }), 404);
    expect((await app.json(`${readBase(pagedProject)}/${id}`, { token: videoA })).body.result?.[0]?.customName).not.toBe(plainBody.customName);
  });
});

describe('tenancy', () => {
  let idA: string;
  let idB: string;
  beforeAll(async () => {
    [idA, idB] = [await createGroup(orgA, projectA, plainBody), await createGroup(orgB, projectB, plainBody)];
  });

  it("hides another organization's projects and groups behind 404", async () => {
    // Org B's tokens against org A's project and group.
    expectFailure(await app.json(readBase(projectA), { token: videoB }), 404);
    expectFailure(await app.json(`${readBase(projectA)}/${idA}`, { token: videoB }), 404);
    expectFailure(await app.json(manageBase(projectA), { token: orgB.manageToken, body: plainBody }), 404);
    expectFailure(await app.json(`${manageBase(projectA)}/${idA}`, { method: 'PUT', token: orgB.manageToken, body: plainBody }), 404);
    expectFailure(await app.json(`${manageBase(projectA)}/${idA}`, { method: 'DELETE', token: orgB.manageToken }), 404);
    // Org A's token with org B's project and group.
    expectFailure(await app.json(`${readBase(projectB)}/${idB}`, { token: videoA }), 404);
    expectFailure(await app.json(`${manageBase(projectB)}/${idB}`, { method: 'DELETE', token: orgA.manageToken }), 404);
    // Both groups survive the attempts.
    expect((await app.json(`${readBase(projectA)}/${idA}`, { token: videoA })).status).toBe(200);
    expect((await app.json(`${readBase(projectB)}/${idB}`, { token: videoB })).status).toBe(200);
  });
});

describe('ids', () => {
  it('are numbered per project, so one tenant cannot count what others create', async () => {
    const [mine, theirs] = await Promise.all([createProject(orgA, 'Numbering A'), createProject(orgB, 'Numbering B')]);
    const ids: Record<string, string[]> = { mine: [], theirs: [] };
    for (let i = 0; i < 3; i++) {
      ids.mine.push(await createGroup(orgA, mine, plainBody));
      ids.theirs.push(await createGroup(orgB, theirs, plainBody));
    }
    // a global sequence gave 1, 3, 5 and 2, 4, 6
    expect(ids).toEqual({ mine: ['1', '2', '3'], theirs: ['1', '2', '3'] });
  });

  it('concurrent creates in one project get distinct ids, and a deleted id is not handed out again', async () => {
    const project = await createProject(orgA, 'Numbering concurrent');
    const ids = await Promise.all(Array.from({ length: 8 }, () => createGroup(orgA, project, plainBody)));
    expect(ids.map(Number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect((await app.json(`${manageBase(project)}/8`, { method: 'DELETE', token: orgA.manageToken })).status).toBe(200);
    expect(await createGroup(orgA, project, plainBody)).toBe('9');
  });
});

describe('authentication and scopes', () => {
  let id: string;
  beforeAll(async () => {
    id = await createGroup(orgA, projectA, plainBody);
  });

  const calls = () => [
    { path: readBase(projectA), method: 'GET', scope: 'video' },
    { path: `${readBase(projectA)}/${id}`, method: 'GET', scope: 'video' },
    { path: manageBase(projectA), method: 'POST', scope: 'manage', body: plainBody },
    { path: `${manageBase(projectA)}/${id}`, method: 'PUT', scope: 'manage', body: plainBody },
    { path: `${manageBase(projectA)}/${id}`, method: 'DELETE', scope: 'manage' },
  ];

  it('answers 401 without a token or with a bad one', async () => {
    for (const call of calls()) {
      const none = await app.json(call.path, { method: call.method, body: call.body });
      expectFailure(none, 401);
      expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expectFailure(await app.json(call.path, { method: call.method, body: call.body, token: 'folio_nottherightformat' }), 401);
    }
  });

  it('answers 403 when the token lacks the scope', async () => {
    for (const call of calls()) {
      const wrong = call.scope === 'video' ? orgA.manageToken : videoA;
      expectFailure(await app.json(call.path, { method: call.method, body: call.body, token: wrong }), 403);
      expectFailure(await app.json(call.path, { method: call.method, body: call.body, token: analyticsA }), 403);
    }
    // The group was neither replaced nor deleted by the refused calls.
    expect((await app.json(`${readBase(projectA)}/${id}`, { token: videoA })).status).toBe(200);
  });
});

describe('OpenAPI', () => {
  it('documents the five operations with their numeric codes', async () => {
    const res = await app.json('/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(Object.keys(doc.paths['/api/v1/projects/{projectId}/outputgroups'])).toEqual(['get']);
    expect(Object.keys(doc.paths['/api/v1/projects/{projectId}/outputgroups/{id}'])).toEqual(['get']);
    expect(Object.keys(doc.paths['/management/v1/projects/{projectId}/outputgroups'])).toEqual(['post']);
    expect(Object.keys(doc.paths['/management/v1/projects/{projectId}/outputgroups/{id}']).sort()).toEqual(['delete', 'put']);
    const detail = doc.components.schemas.OutputGroupDetail;
    expect(detail.properties.type.enum).toEqual([1, 2, 3, 4]);
    expect(detail.properties.type.description).toContain('1 = HLS');
    expect(detail.properties.groupDRM.properties.protectionSchemaType.description).toContain('4 = cbcs');
    expect(doc.components.schemas.OutputGroupInput.properties.drm.properties.providers.items.description).toContain('3 = FairPlay');
    // Every $ref in the fragment resolves.
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/[A-Za-z]+/g) ?? [];
    for (const ref of new Set(refs)) expect(doc.components.schemas[ref.split('/').pop()!], ref).toBeDefined();
  });
});
