/** An output group as the domain keeps it: codes from the catalog, nothing derived. */
export interface OutputSpec {
  name: string;
  /** Playlist name of this output; unique within the group. */
  nameModifier: string;
  presetId: number;
}

export interface DrmSpec {
  providers: number[];
  /** Set only with the Widevine key provider. */
  widevineAlgorithm: number | null;
  /** Set only with the raw-key key provider. */
  rawKeyLabels: string[];
  shakaPackagerKeyProviderType: number;
  protectionSchemaType: number;
  encryptionAlgorithmType: number;
  label: string;
  clearLead: number;
}

export interface OutputGroupSpec {
  name: string;
  customName: string;
  description: string;
  type: number;
  segmentControl: number;
  segmentLength: number;
  minSegmentLength: number;
  categories: number[];
  hasDRM: boolean;
  /** Present exactly when `hasDRM` is true. */
  drm: DrmSpec | null;
  outputs: OutputSpec[];
}

export interface OutputGroupRecord extends OutputGroupSpec {
  id: number;
  projectId: string;
  createdAt: Date;
  updatedAt: Date;
}
