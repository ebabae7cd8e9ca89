import { describe, expect, it } from 'vitest';
import { isAppError, type AppError } from '../errors/index.js';
import { checkOutputGroup } from './check-output-group.js';
import type { OutputGroupInput } from './output-group-input.js';

const plain: OutputGroupInput = {
  type: 1,
  segmentControl: 1,
  segmentLength: 6,
  hasDRM: false,
  outputs: [{ name: '1080p', nameModifier: '_1080', presetId: 2 }],
};

const widevine: OutputGroupInput = {
  ...plain,
  hasDRM: true,
  drm: {
    providers: [1, 2],
    widevineAlgorithm: 1,
    shakaPackagerKeyProviderType: 1,
    protectionSchemaType: 1,
    encryptionAlgorithmType: 3,
    label: 'main',
    clearLead: 10,
  },
};

/** The 422 reasons of a body the checker must reject. */
function reasonsOf(input: OutputGroupInput): string[] {
  try {
    checkOutputGroup(input);
  } catch (e) {
    expect(isAppError(e)).toBe(true);
    expect((e as AppError).status).toBe(422);
    return (e as AppError).details;
  }
  throw new Error('expected a 422');
}

describe('checkOutputGroup', () => {
  it('fills defaults from the catalog', () => {
    const spec = checkOutputGroup(plain);
    expect(spec).toEqual({
      name: 'Apple HLS',
      customName: '',
      description: '',
      type: 1,
      segmentControl: 1,
      segmentLength: 6,
      minSegmentLength: 2,
      categories: [],
      hasDRM: false,
      drm: null,
      outputs: [{ name: '1080p', nameModifier: '_1080', presetId: 2 }],
    });
  });

  it('keeps a Widevine DRM block and drops nothing it needs', () => {
    const spec = checkOutputGroup(widevine);
    expect(spec.drm).toEqual({
      providers: [1, 2],
      widevineAlgorithm: 1,
      rawKeyLabels: [],
      shakaPackagerKeyProviderType: 1,
      protectionSchemaType: 1,
      encryptionAlgorithmType: 3,
      label: 'main',
      clearLead: 10,
    });
  });

  it('accepts raw keys with FairPlay and cbcs', () => {
    const spec = checkOutputGroup({
      ...plain,
      hasDRM: true,
      drm: {
        providers: [3],
        rawKeyLabels: ['SD', 'HD'],
        shakaPackagerKeyProviderType: 3,
        protectionSchemaType: 4,
        encryptionAlgorithmType: 2,
      },
    });
    expect(spec.drm?.rawKeyLabels).toEqual(['SD', 'HD']);
    expect(spec.drm?.widevineAlgorithm).toBeNull();
    expect(spec.drm?.clearLead).toBe(0);
  });

  it.each<[string, OutputGroupInput, string]>([
    ['an unknown type', { ...plain, type: 99 }, 'type: unknown output group type 99'],
    ['an unknown segment control', { ...plain, segmentControl: 7 }, 'segmentControl: unknown segment control 7'],
    ['segmentLength below the default minimum', { ...plain, segmentLength: 1 }, 'segmentLength: must be at least minSegmentLength (2)'],
    ['segmentLength below minSegmentLength', { ...plain, segmentLength: 4, minSegmentLength: 5 }, 'segmentLength: must be at least minSegmentLength (5)'],
    ['minSegmentLength out of range', { ...plain, minSegmentLength: 0, segmentLength: 6 }, 'minSegmentLength: must be between 1 and 60'],
    ['segmentLength over the ceiling', { ...plain, segmentLength: 61 }, 'segmentLength: must be at most 60'],
    ['an unknown category', { ...plain, categories: [1, 42] }, 'categories[1]: unknown category 42'],
    ['a repeated category', { ...plain, categories: [2, 2] }, 'categories[1]: category 2 is listed twice'],
    ['DRM settings without hasDRM', { ...widevine, hasDRM: false }, 'drm: DRM settings require hasDRM: true'],
    ['hasDRM without settings', { ...plain, hasDRM: true }, 'drm: required when hasDRM is true'],
    ['an unknown preset', { ...plain, outputs: [{ name: 'x', nameModifier: 'x', presetId: 500 }] }, 'outputs[0].presetId: unknown output preset 500'],
    [
      'a repeated playlist name',
      { ...plain, outputs: [{ name: 'a', nameModifier: '_hd', presetId: 2 }, { name: 'b', nameModifier: '_hd', presetId: 4 }] },
      'outputs[1].nameModifier:',
    ],
    ['a negative clearLead', { ...widevine, drm: { ...widevine.drm!, clearLead: -1 } }, 'drm.clearLead: must not be negative'],
    ['an unknown DRM provider', { ...widevine, drm: { ...widevine.drm!, providers: [1, 9] } }, 'drm.providers[1]: unknown DRM provider 9'],
    ['no DRM provider', { ...widevine, drm: { ...widevine.drm!, providers: [] } }, 'drm.providers: name at least one'],
    ['an unknown key provider', { ...widevine, drm: { ...widevine.drm!, shakaPackagerKeyProviderType: 8 } }, 'drm.shakaPackagerKeyProviderType: unknown key provider type 8'],
    ['a Widevine key provider without Widevine', { ...widevine, drm: { ...widevine.drm!, providers: [2] } }, 'drm.shakaPackagerKeyProviderType: the Widevine key provider needs'],
    ['a PlayReady key provider without PlayReady', { ...widevine, drm: { ...widevine.drm!, widevineAlgorithm: undefined, shakaPackagerKeyProviderType: 2, providers: [1] } }, 'drm.shakaPackagerKeyProviderType: the PlayReady key provider needs'],
    ['an unknown Widevine algorithm', { ...widevine, drm: { ...widevine.drm!, widevineAlgorithm: 3 } }, 'drm.widevineAlgorithm: unknown Widevine algorithm 3'],
    ['a missing Widevine algorithm', { ...widevine, drm: { ...widevine.drm!, widevineAlgorithm: undefined } }, 'drm.widevineAlgorithm: required'],
    ['a Widevine algorithm with raw keys', { ...widevine, drm: { ...widevine.drm!, shakaPackagerKeyProviderType: 3, rawKeyLabels: ['SD'] } }, 'drm.widevineAlgorithm: only used'],
    ['raw keys without labels', { ...widevine, drm: { ...widevine.drm!, widevineAlgorithm: undefined, shakaPackagerKeyProviderType: 3 } }, 'drm.rawKeyLabels: name at least one label'],
    ['an unknown raw-key label', { ...widevine, drm: { ...widevine.drm!, widevineAlgorithm: undefined, shakaPackagerKeyProviderType: 3, rawKeyLabels: ['SD', '8K'] } }, 'drm.rawKeyLabels[1]: unknown raw-key label "8K"'],
    ['raw-key labels with Widevine', { ...widevine, drm: { ...widevine.drm!, rawKeyLabels: ['SD'] } }, 'drm.rawKeyLabels: only used'],
    ['an unknown protection scheme', { ...widevine, drm: { ...widevine.drm!, protectionSchemaType: 5 } }, 'drm.protectionSchemaType: unknown protection scheme 5'],
    ['FairPlay without cbcs', { ...widevine, drm: { ...widevine.drm!, providers: [1, 3] } }, 'drm.protectionSchemaType: FairPlay requires protection scheme 4 (cbcs)'],
    ['an unknown encryption algorithm', { ...widevine, drm: { ...widevine.drm!, encryptionAlgorithmType: 0 } }, 'drm.encryptionAlgorithmType: unknown encryption algorithm 0'],
  ])('rejects %s naming the field', (_label, input, reason) => {
    const reasons = reasonsOf(input);
    expect(reasons.some((r) => r.startsWith(reason)), reasons.join(' | ')).toBe(true);
  });

  it('names every problem of one body at once', () => {
    const reasons = reasonsOf({ ...plain, type: 0, segmentControl: 0, outputs: [{ name: 'x', nameModifier: 'x', presetId: 0 }] });
    expect(reasons.map((r) => r.split(':')[0])).toEqual(['type', 'segmentControl', 'outputs[0].presetId']);
  });
});
