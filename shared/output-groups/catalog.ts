// Everything an output group chooses from. The management API validates writes
// against this catalog, the detail endpoint renders it, and the OpenAPI document lists its codes,
// so a code is defined here once and nowhere else. Codes are int32 and never reused: retire an
// entry by setting `enabled: false` (stored groups keep rendering it; new writes reject it).

/** One selectable value. `enabled: false` means retired: still rendered, no longer accepted. */
export interface CatalogOption {
  id: number;
  value: string;
  enabled: boolean;
}

export interface OutputGroupType extends CatalogOption {
  /** The group's default `name` when the client gives none. */
  defaultName: string;
}

export interface DrmProvider {
  id: number;
  name: string;
  enabled: boolean;
}

/** The API names the second member both `type` and `value`; both carry the same string. */
export interface WidevineAlgorithm {
  id: number;
  type: string;
  value: string;
  enabled: boolean;
}

export interface OutputPreset {
  id: number;
  name: string;
  videoCodec: string;
  audioCodec: string;
  enabled: boolean;
}

export const outputGroupTypes: readonly OutputGroupType[] = [
  { id: 1, value: 'HLS', defaultName: 'Apple HLS', enabled: true },
  { id: 2, value: 'DASH', defaultName: 'MPEG-DASH', enabled: true },
  { id: 3, value: 'CMAF', defaultName: 'CMAF', enabled: true },
  { id: 4, value: 'MP4', defaultName: 'File MP4', enabled: true },
];

export const segmentControls: readonly CatalogOption[] = [
  { id: 1, value: 'Segmented files', enabled: true },
  { id: 2, value: 'Single file', enabled: true },
];

export const categories: readonly CatalogOption[] = [
  { id: 1, value: 'Video on demand', enabled: true },
  { id: 2, value: 'Live', enabled: true },
  { id: 3, value: 'Audio only', enabled: true },
  { id: 4, value: 'Trailer', enabled: true },
  { id: 5, value: 'Social', enabled: true },
];

export const drmProviders: readonly DrmProvider[] = [
  { id: 1, name: 'Widevine', enabled: true },
  { id: 2, name: 'PlayReady', enabled: true },
  { id: 3, name: 'FairPlay', enabled: true },
];

/** How Shaka Packager obtains content keys (`shakaPackagerKeyProviderType`). */
export const keyProviderTypes: readonly CatalogOption[] = [
  { id: 1, value: 'Widevine', enabled: true },
  { id: 2, value: 'PlayReady', enabled: true },
  { id: 3, value: 'Raw key', enabled: true },
];

export const KEY_PROVIDER_WIDEVINE = 1;
export const KEY_PROVIDER_PLAYREADY = 2;
export const KEY_PROVIDER_RAW_KEY = 3;
export const DRM_PROVIDER_WIDEVINE = 1;
export const DRM_PROVIDER_PLAYREADY = 2;
export const DRM_PROVIDER_FAIRPLAY = 3;

/** How requests to the Widevine key server are signed (Shaka Packager `--signer`). */
export const widevineAlgorithms: readonly WidevineAlgorithm[] = [
  { id: 1, type: 'AES', value: 'AES', enabled: true },
  { id: 2, type: 'RSA', value: 'RSA', enabled: true },
];

/** Stream labels a raw key can be bound to (Shaka Packager's default DRM labels). */
export const rawKeyLabels: readonly string[] = ['AUDIO', 'SD', 'HD', 'UHD1', 'UHD2'];

/** Common Encryption schemes (ISO/IEC 23001-7) Shaka Packager writes (`protectionSchemaType`). */
export const protectionSchemes: readonly CatalogOption[] = [
  { id: 1, value: 'cenc', enabled: true },
  { id: 2, value: 'cens', enabled: true },
  { id: 3, value: 'cbc1', enabled: true },
  { id: 4, value: 'cbcs', enabled: true },
];

export const PROTECTION_SCHEME_CBCS = 4;

/** Encryption method announced in playlists (`encryptionAlgorithmType`). */
export const encryptionAlgorithms: readonly CatalogOption[] = [
  { id: 1, value: 'AES-128', enabled: true },
  { id: 2, value: 'SAMPLE-AES', enabled: true },
  { id: 3, value: 'SAMPLE-AES-CTR', enabled: true },
];

export const outputPresets: readonly OutputPreset[] = [
  { id: 1, name: '2160p HEVC', videoCodec: 'hevc', audioCodec: 'aac', enabled: true },
  { id: 2, name: '1080p H.264', videoCodec: 'h264', audioCodec: 'aac', enabled: true },
  { id: 3, name: '1080p HEVC', videoCodec: 'hevc', audioCodec: 'aac', enabled: true },
  { id: 4, name: '720p H.264', videoCodec: 'h264', audioCodec: 'aac', enabled: true },
  { id: 5, name: '480p H.264', videoCodec: 'h264', audioCodec: 'aac', enabled: true },
  { id: 6, name: '360p H.264', videoCodec: 'h264', audioCodec: 'aac', enabled: true },
  { id: 7, name: '1080p AV1', videoCodec: 'av1', audioCodec: 'opus', enabled: true },
  { id: 8, name: 'Audio AAC 128k', videoCodec: '', audioCodec: 'aac', enabled: true },
];

/** Segment lengths, in seconds. */
export const segmentLengthLimits = { floor: 1, ceiling: 60, defaultMin: 2 } as const;

/** Clear lead, in seconds: how long the start of a stream stays unencrypted. */
export const clearLeadLimits = { ceiling: 3600 } as const;

export const maxOutputsPerGroup = 32;

/** Looks up an entry by code; `undefined` when the code is unknown. */
export function byId<T extends { id: number }>(list: readonly T[], id: number): T | undefined {
  return list.find((item) => item.id === id);
}
