import { Router } from 'express';
import { listPresets } from '../../../shared/assets/preset-repository.js';
import { removePreset, savePreset } from '../../../shared/assets/preset-service.js';
import { z } from 'zod';
import { ok } from '../../../shared/envelope.js';
import { notFound } from '../../../shared/errors/index.js';
import type { Services } from '../../../shared/services.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';
import { presetInputSchema, presetNameSchema } from '../../../shared/assets/asset-input.js';

const presetView = (p: { name: string; options: object; updatedAt: Date }) => ({ name: p.name, ...p.options, updatedAt: p.updatedAt });

/** Named image presets of an org (`transformation.preset` in GraphQL). */
export function imagePresetRoutes(services: Services): Router {
  const r = Router();

  r.put('/management/v1/image-presets/:name', requireScope('manage'), async (req, res) => {
    const { name } = parseInput(z.object({ name: presetNameSchema }), { name: req.params.name }, { what: 'preset name' });
    const options = parseInput(presetInputSchema, req.body ?? {});
    const { preset, created } = await savePreset(services.db, tenantOf(req).orgId, name, options);
    res.status(created ? 201 : 200).json(ok(presetView(preset)));
  });

  r.get('/management/v1/image-presets', requireScope('manage'), async (req, res) => {
    const presets = await listPresets(services.db, tenantOf(req).orgId);
    res.json(ok(presets.map(presetView)));
  });

  r.delete('/management/v1/image-presets/:name', requireScope('manage'), async (req, res) => {
    if (!(await removePreset(services.db, tenantOf(req).orgId, String(req.params.name)))) throw notFound(`Image preset "${req.params.name}"`);
    res.json(ok({ name: req.params.name }));
  });

  return r;
}
