import { Router } from 'express';
import { ok } from '../../../shared/envelope.js';
import { modelInputSchema } from '../../../shared/content/model-input.js';
import { modelAnswer } from '../../../shared/content/model-repository.js';
import { deleteModel, listModels, putModel, requireModel } from '../../../shared/content/models.js';
import type { Services } from '../../../shared/services.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';
import { readOrgLocales } from '../../../shared/delivery/org-schema-source.js';
import { modelSdl } from '../../../shared/delivery/schema/model-sdl.js';
import { notFound } from '../../../shared/errors/index.js';

/** `/management/v1/models`: create or replace, read, list and delete content models. */
export function modelRoutes(services: Services): Router {
  const r = Router();
  const manage = requireScope('manage');

  r.get('/management/v1/models', manage, async (req, res) => {
    res.json(ok((await listModels(services.db, tenantOf(req).orgId)).map(modelAnswer)));
  });

  r.get('/management/v1/models/:alias', manage, async (req, res) => {
    res.json(ok(modelAnswer(await requireModel(services, tenantOf(req).orgId, req.params.alias as string))));
  });

  // the GraphQL type the saved model produces (the Studio's preview; sessions have no GraphQL door)
  r.get('/management/v1/models/:alias/graphql', manage, async (req, res) => {
    const orgId = tenantOf(req).orgId;
    const alias = req.params.alias as string;
    const answer = modelSdl(await listModels(services.db, orgId), await readOrgLocales(services.db, orgId), alias);
    if (!answer) throw notFound(`Model "${alias}"`);
    res.json(ok({ alias, ...answer }));
  });

  r.put('/management/v1/models/:alias', manage, async (req, res) => {
    const input = parseInput(modelInputSchema, req.body, { status: 422, what: 'model' });
    const { model, created, brokenEntries } = await putModel(services, tenantOf(req).orgId, req.params.alias as string, input);
    res.status(created ? 201 : 200).json(ok(brokenEntries.length > 0 ? { ...modelAnswer(model), brokenEntries } : modelAnswer(model)));
  });

  r.delete('/management/v1/models/:alias', manage, async (req, res) => {
    await deleteModel(services, tenantOf(req).orgId, req.params.alias as string);
    res.json(ok({ alias: req.params.alias }));
  });

  return r;
}
