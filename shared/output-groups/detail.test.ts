import { describe, expect, it } from 'vitest';
import { outputGroupTypes, outputPresets, protectionSchemes, widevineAlgorithms } from './catalog.js';
import { checkOutputGroup } from './check-output-group.js';
import { toDetail } from './detail.js';
import type { OutputGroupRecord } from './types.js';

const stamp = new Date('2026-01-01T00:00:00Z');

function record(spec: ReturnType<typeof checkOutputGroup>): OutputGroupRecord {
  return { ...spec, id: 7, projectId: '00000000-0000-4000-8000-000000000000', createdAt: stamp, updatedAt: stamp };
}

describe('toDetail', () => {
  it('marks the chosen options and renders outputs from the presets', () => {
    const detail = toDetail(
      record(
        checkOutputGroup({
          type: 2,
          segmentControl: 2,
          segmentLength: 4,
          categories: [1, 3],
          hasDRM: true,
          drm: { providers: [1], widevineAlgorithm: 2, shakaPackagerKeyProviderType: 1, protectionSchemaType: 4, encryptionAlgorithmType: 2 },
          outputs: [{ name: 'Audio', nameModifier: '_audio', presetId: 8 }],
        }),
      ),
    );
    expect(detail.id).toBe('7');
    expect(detail.outputGroupsTypes).toEqual(Object.fromEntries(outputGroupTypes.map((t) => [t.value, t.id])));
    expect(detail.typeOptions.filter((o) => o.enabled).map((o) => o.id)).toEqual([2]);
    expect(detail.segmentControlOptions.filter((o) => o.enabled).map((o) => o.id)).toEqual([2]);
    expect(detail.categoryOptions.filter((o) => o.enabled).map((o) => o.id)).toEqual([1, 3]);
    expect(detail.groupDRM.protectionSchemaOptions).toHaveLength(protectionSchemes.length);
    expect(detail.groupDRM.protectionSchemaOptions.filter((o) => o.enabled).map((o) => o.value)).toEqual(['cbcs']);
    expect(detail.drmList.providers).toEqual([{ id: 1, name: 'Widevine' }]);
    expect(detail.drmList.widevineAlgorithm.widevineId).toBe(2);
    expect(detail.drmList.widevineAlgorithm.algorithms).toHaveLength(widevineAlgorithms.length);
    for (const a of detail.drmList.widevineAlgorithm.algorithms) expect(a.type).toBe(a.value);
    expect(detail.drmList.rawKey).toEqual({ rawKeyId: 0, labels: [] });
    const audio = outputPresets.find((p) => p.id === 8)!;
    expect(detail.outputs).toEqual([
      { name: 'Audio', nameModifier: '_audio', presetId: 8, presetName: audio.name, videoCodec: '', audioCodec: audio.audioCodec },
    ]);
  });

  it('renders a group without DRM with zero codes and nothing enabled', () => {
    const detail = toDetail(record(checkOutputGroup({ type: 4, segmentControl: 2, segmentLength: 10, hasDRM: false, outputs: [] })));
    expect(detail.groupDRM).toMatchObject({ shakaPackagerKeyProviderType: 0, protectionSchemaType: 0, encryptionAlgorithmType: 0, label: '', clearLead: 0 });
    expect(detail.groupDRM.protectionSchemaOptions.every((o) => !o.enabled)).toBe(true);
    expect(detail.drmList.providers).toEqual([]);
    expect(detail.emptyOutputModel).toEqual({ name: '', nameModifier: '', presetId: 0, presetName: '', videoCodec: '', audioCodec: '' });
  });
});
