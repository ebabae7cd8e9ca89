import {
  KEY_PROVIDER_RAW_KEY,
  categories,
  drmProviders,
  outputGroupTypes,
  outputPresets,
  protectionSchemes,
  segmentControls,
  widevineAlgorithms,
  type CatalogOption,
} from './catalog.js';
import type { OutputGroupRecord, OutputSpec } from './types.js';

/** An option as the API renders it: `enabled` says whether this group chose it. */
export interface OptionView {
  id: number;
  value: string;
  enabled: boolean;
}

export interface OutputModelView {
  name: string;
  nameModifier: string;
  presetId: number;
  presetName: string;
  videoCodec: string;
  audioCodec: string;
}

export interface OutputGroupDetail {
  /** Not in the API's table: added so a client that just created a group learns its id. */
  id: string;
  name: string;
  customName: string;
  segmentControl: number;
  segmentControlOptions: OptionView[];
  segmentLength: number;
  minSegmentLength: number;
  type: number;
  outputGroupsTypes: Record<string, number>;
  typeOptions: OptionView[];
  categoryOptions: OptionView[];
  hasDRM: boolean;
  drmList: {
    providers: { id: number; name: string }[];
    widevineAlgorithm: { widevineId: number; algorithms: { id: number; type: string; value: string }[] };
    rawKey: { rawKeyId: number; labels: string[] };
  };
  groupDRM: {
    shakaPackagerKeyProviderType: number;
    protectionSchemaType: number;
    protectionSchemaOptions: OptionView[];
    encryptionAlgorithmType: number;
    label: string;
    clearLead: number;
  };
  description: string;
  emptyOutputModel: OutputModelView;
  outputs: OutputModelView[];
}

/** The template a client copies to add an output: every member present, nothing chosen. */
export const emptyOutputModel: OutputModelView = Object.freeze({
  name: '',
  nameModifier: '',
  presetId: 0,
  presetName: '',
  videoCodec: '',
  audioCodec: '',
});

/** Every active option, plus a retired one this group still uses; `enabled` marks the choices. */
function options(list: readonly CatalogOption[], chosen: readonly number[]): OptionView[] {
  return list
    .filter((o) => o.enabled || chosen.includes(o.id))
    .map((o) => ({ id: o.id, value: o.value, enabled: chosen.includes(o.id) }));
}

function outputModel(output: OutputSpec): OutputModelView {
  const preset = outputPresets.find((p) => p.id === output.presetId);
  return {
    name: output.name,
    nameModifier: output.nameModifier,
    presetId: output.presetId,
    presetName: preset?.name ?? '',
    videoCodec: preset?.videoCodec ?? '',
    audioCodec: preset?.audioCodec ?? '',
  };
}

/** Renders a stored group with the catalog into the API's detail object. */
export function toDetail(group: OutputGroupRecord): OutputGroupDetail {
  const types = outputGroupTypes.filter((t) => t.enabled || t.id === group.type);
  const drm = group.drm;
  return {
    id: String(group.id),
    name: group.name,
    customName: group.customName,
    segmentControl: group.segmentControl,
    segmentControlOptions: options(segmentControls, [group.segmentControl]),
    segmentLength: group.segmentLength,
    minSegmentLength: group.minSegmentLength,
    type: group.type,
    outputGroupsTypes: Object.fromEntries(types.map((t) => [t.value, t.id])),
    typeOptions: options(types, [group.type]),
    categoryOptions: options(categories, group.categories),
    hasDRM: group.hasDRM,
    drmList: {
      providers: drmProviders
        .filter((p) => drm?.providers.includes(p.id))
        .map((p) => ({ id: p.id, name: p.name })),
      widevineAlgorithm: {
        widevineId: drm?.widevineAlgorithm ?? 0,
        algorithms: widevineAlgorithms
          .filter((a) => a.enabled || a.id === drm?.widevineAlgorithm)
          .map((a) => ({ id: a.id, type: a.type, value: a.value })),
      },
      rawKey: {
        rawKeyId: drm?.shakaPackagerKeyProviderType === KEY_PROVIDER_RAW_KEY ? KEY_PROVIDER_RAW_KEY : 0,
        labels: drm ? [...drm.rawKeyLabels] : [],
      },
    },
    groupDRM: {
      shakaPackagerKeyProviderType: drm?.shakaPackagerKeyProviderType ?? 0,
      protectionSchemaType: drm?.protectionSchemaType ?? 0,
      protectionSchemaOptions: options(protectionSchemes, drm ? [drm.protectionSchemaType] : []),
      encryptionAlgorithmType: drm?.encryptionAlgorithmType ?? 0,
      label: drm?.label ?? '',
      clearLead: drm?.clearLead ?? 0,
    },
    description: group.description,
    emptyOutputModel: { ...emptyOutputModel },
    outputs: group.outputs.map(outputModel),
  };
}
