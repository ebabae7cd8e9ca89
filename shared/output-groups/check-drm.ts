import {
  DRM_PROVIDER_FAIRPLAY,
  DRM_PROVIDER_PLAYREADY,
  DRM_PROVIDER_WIDEVINE,
  KEY_PROVIDER_PLAYREADY,
  KEY_PROVIDER_RAW_KEY,
  KEY_PROVIDER_WIDEVINE,
  PROTECTION_SCHEME_CBCS,
  clearLeadLimits,
  drmProviders,
  encryptionAlgorithms,
  keyProviderTypes,
  protectionSchemes,
  rawKeyLabels,
  widevineAlgorithms,
} from './catalog.js';
import type { DrmInput } from './output-group-input.js';
import { Issues, checkCode, checkCodeList } from './issues.js';
import type { DrmSpec } from './types.js';

const wv = widevineAlgorithms.map((a) => ({ id: a.id, value: a.value, enabled: a.enabled }));

/** Checks the `drm` block against the catalog and the rules that tie its parts together. */
export function checkDrm(issues: Issues, drm: DrmInput, path = 'drm'): DrmSpec {
  if (drm.providers.length === 0) issues.add(`${path}.providers`, 'name at least one DRM provider.');
  checkCodeList(issues, `${path}.providers`, drm.providers, drmProviders, 'DRM provider');
  const has = (provider: number) => drm.providers.includes(provider);

  const keyProvider = drm.shakaPackagerKeyProviderType;
  const keyPath = `${path}.shakaPackagerKeyProviderType`;
  if (checkCode(issues, keyPath, keyProvider, keyProviderTypes, 'key provider type')) {
    // A key server can only serve the DRM system it belongs to.
    if (keyProvider === KEY_PROVIDER_WIDEVINE && !has(DRM_PROVIDER_WIDEVINE)) {
      issues.add(keyPath, `the Widevine key provider needs provider ${DRM_PROVIDER_WIDEVINE} (Widevine) in providers.`);
    }
    if (keyProvider === KEY_PROVIDER_PLAYREADY && !has(DRM_PROVIDER_PLAYREADY)) {
      issues.add(keyPath, `the PlayReady key provider needs provider ${DRM_PROVIDER_PLAYREADY} (PlayReady) in providers.`);
    }
  }

  const algorithmPath = `${path}.widevineAlgorithm`;
  if (drm.widevineAlgorithm !== undefined) {
    if (keyProvider !== KEY_PROVIDER_WIDEVINE) {
      issues.add(algorithmPath, `only used with key provider ${KEY_PROVIDER_WIDEVINE} (Widevine).`);
    } else checkCode(issues, algorithmPath, drm.widevineAlgorithm, wv, 'Widevine algorithm');
  } else if (keyProvider === KEY_PROVIDER_WIDEVINE) {
    issues.add(algorithmPath, 'required with the Widevine key provider.');
  }

  const labels = drm.rawKeyLabels ?? [];
  const labelsPath = `${path}.rawKeyLabels`;
  if (keyProvider === KEY_PROVIDER_RAW_KEY) {
    if (labels.length === 0) issues.add(labelsPath, 'name at least one label with the raw-key key provider.');
    const seen = new Set<string>();
    labels.forEach((label, i) => {
      if (seen.has(label)) issues.add(`${labelsPath}[${i}]`, `label ${label} is listed twice.`);
      else if (!rawKeyLabels.includes(label)) {
        issues.add(`${labelsPath}[${i}]`, `unknown raw-key label "${label}"; expected one of ${rawKeyLabels.join(', ')}.`);
      }
      seen.add(label);
    });
  } else if (labels.length > 0) {
    issues.add(labelsPath, `only used with key provider ${KEY_PROVIDER_RAW_KEY} (Raw key).`);
  }

  const schemePath = `${path}.protectionSchemaType`;
  if (checkCode(issues, schemePath, drm.protectionSchemaType, protectionSchemes, 'protection scheme')) {
    // FairPlay only decrypts CBC pattern encryption.
    if (has(DRM_PROVIDER_FAIRPLAY) && drm.protectionSchemaType !== PROTECTION_SCHEME_CBCS) {
      issues.add(schemePath, `FairPlay requires protection scheme ${PROTECTION_SCHEME_CBCS} (cbcs).`);
    }
  }
  checkCode(issues, `${path}.encryptionAlgorithmType`, drm.encryptionAlgorithmType, encryptionAlgorithms, 'encryption algorithm');

  const clearLead = drm.clearLead ?? 0;
  if (clearLead < 0) issues.add(`${path}.clearLead`, 'must not be negative.');
  else if (clearLead > clearLeadLimits.ceiling) {
    issues.add(`${path}.clearLead`, `must be at most ${clearLeadLimits.ceiling} seconds.`);
  }

  return {
    providers: [...drm.providers],
    widevineAlgorithm: keyProvider === KEY_PROVIDER_WIDEVINE ? (drm.widevineAlgorithm ?? null) : null,
    rawKeyLabels: keyProvider === KEY_PROVIDER_RAW_KEY ? [...labels] : [],
    shakaPackagerKeyProviderType: keyProvider,
    protectionSchemaType: drm.protectionSchemaType,
    encryptionAlgorithmType: drm.encryptionAlgorithmType,
    label: drm.label ?? '',
    clearLead,
  };
}
