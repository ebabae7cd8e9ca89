import { unprocessable } from '../errors/index.js';
import {
  categories,
  maxOutputsPerGroup,
  outputGroupTypes,
  outputPresets,
  segmentControls,
  segmentLengthLimits,
} from './catalog.js';
import { checkDrm } from './check-drm.js';
import type { OutputGroupInput } from './output-group-input.js';
import { Issues, checkCode, checkCodeList } from './issues.js';
import type { OutputGroupSpec, OutputSpec } from './types.js';

/**
 * Checks a shape-valid write body against the catalog and the rules between fields, and returns
 * the group as stored. Throws one 422 that names every offending field path.
 */
export function checkOutputGroup(input: OutputGroupInput): OutputGroupSpec {
  const issues = new Issues();

  checkCode(issues, 'type', input.type, outputGroupTypes, 'output group type');
  checkCode(issues, 'segmentControl', input.segmentControl, segmentControls, 'segment control');

  const { floor, ceiling, defaultMin } = segmentLengthLimits;
  const minSegmentLength = input.minSegmentLength ?? defaultMin;
  if (minSegmentLength < floor || minSegmentLength > ceiling) {
    issues.add('minSegmentLength', `must be between ${floor} and ${ceiling} seconds.`);
  }
  if (input.segmentLength < minSegmentLength) {
    issues.add('segmentLength', `must be at least minSegmentLength (${minSegmentLength}).`);
  } else if (input.segmentLength > ceiling) {
    issues.add('segmentLength', `must be at most ${ceiling} seconds.`);
  }

  const categoryIds = input.categories ?? [];
  checkCodeList(issues, 'categories', categoryIds, categories, 'category');

  const hasDRM = input.hasDRM ?? input.drm !== undefined;
  if (!hasDRM && input.drm !== undefined) issues.add('drm', 'DRM settings require hasDRM: true.');
  if (hasDRM && input.drm === undefined) issues.add('drm', 'required when hasDRM is true.');
  const drm = hasDRM && input.drm !== undefined ? checkDrm(issues, input.drm) : null;

  const outputs = checkOutputs(issues, input.outputs);

  if (!issues.empty) throw unprocessable('The output group is not valid.', issues.list);
  const type = outputGroupTypes.find((t) => t.id === input.type);
  return {
    name: input.name?.trim() || (type?.defaultName ?? ''),
    customName: input.customName ?? '',
    description: input.description ?? '',
    type: input.type,
    segmentControl: input.segmentControl,
    segmentLength: input.segmentLength,
    minSegmentLength,
    categories: [...categoryIds],
    hasDRM,
    drm,
    outputs,
  };
}

function checkOutputs(issues: Issues, outputs: OutputGroupInput['outputs']): OutputSpec[] {
  if (outputs.length > maxOutputsPerGroup) {
    issues.add('outputs', `at most ${maxOutputsPerGroup} outputs per group.`);
  }
  const modifiers = new Set<string>();
  outputs.forEach((output, i) => {
    const preset = outputPresets.find((p) => p.id === output.presetId && p.enabled);
    if (!preset) issues.add(`outputs[${i}].presetId`, `unknown output preset ${output.presetId}.`);
    // Each output becomes a playlist named by its modifier: two equal names would overwrite.
    if (modifiers.has(output.nameModifier)) {
      issues.add(`outputs[${i}].nameModifier`, `"${output.nameModifier}" is already used by another output.`);
    }
    modifiers.add(output.nameModifier);
  });
  return outputs.map((o) => ({ name: o.name, nameModifier: o.nameModifier, presetId: o.presetId }));
}
