import { componentAsModel } from '../field-values.js';
import type { ModelDefinition } from '../model-types.js';
import type { AssetShape } from '../target-repository.js';
import { ruleIn } from './rules.js';

/**
 * The media rules (assetTypes, imageSize) of a model's fields on an entry's normalized values,
 * given the assets they point at. An asset that is not found is reported by the target check,
 * not here. `imageSize` holds only images whose dimensions are known.
 */
export function mediaRuleBreaks(model: ModelDefinition, fields: Record<string, unknown>, assets: ReadonlyMap<string, AssetShape>, at = 'fields'): string[] {
  const out: string[] = [];
  for (const f of model.fields) {
    if (f.type === 'component') {
      // a component's media fields keep their rules wherever the component is used
      const v = fields[f.alias];
      const items = f.valueType === 'list' && Array.isArray(v) ? v : v === undefined ? [] : [v];
      items.forEach((item, i) => {
        const inner = item && typeof item === 'object' ? componentAsModel(model, String((item as Record<string, unknown>).component)) : null;
        if (inner) out.push(...mediaRuleBreaks(inner, item as Record<string, unknown>, assets, f.valueType === 'list' ? `${at}.${f.alias}[${i}]` : `${at}.${f.alias}`));
      });
      continue;
    }
    if (f.type !== 'media' || !f.validations?.length) continue;
    const types = ruleIn(f.validations, 'assetTypes');
    const size = ruleIn(f.validations, 'imageSize');
    const v = fields[f.alias];
    const ids = f.valueType === 'list' && Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
    ids.forEach((id, i) => {
      const a = typeof id === 'string' ? assets.get(id) : undefined;
      if (!a) return;
      const path = f.valueType === 'list' ? `${at}.${f.alias}[${i}]` : `${at}.${f.alias}`;
      if (types && !types.includes(a.type as (typeof types)[number])) out.push(`${path}: assetTypes: asset "${id}" is ${a.type}, not one of ${types.join(', ')}`);
      if (size) {
        if (a.type !== 'IMAGE' || a.width === null || a.height === null) {
          out.push(`${path}: imageSize: asset "${id}" is not an image of known dimensions`);
          return;
        }
        for (const [dim, b, got] of [['width', size.width, a.width], ['height', size.height, a.height]] as const) {
          if (!b) continue;
          if ((b.min !== undefined && got < b.min) || (b.max !== undefined && got > b.max)) {
            out.push(`${path}: imageSize: asset "${id}" is ${got} px in ${dim}, outside ${b.min ?? 0}–${b.max ?? '∞'} px`);
          }
        }
      }
    });
  }
  return out;
}
