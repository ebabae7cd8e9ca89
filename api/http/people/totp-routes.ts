import { Router, type Request } from 'express';
import { ok } from '../../../shared/envelope.js';
import { recoveryCodesInputSchema, secondFactorCodeSchema } from '../../../shared/people/people-input.js';
import { regenerateRecoveryCodes } from '../../../shared/people/recovery-codes.js';
import { confirmSecondFactor, disableSecondFactor, enrollSecondFactor, secondFactorStatus } from '../../../shared/people/second-factor-service.js';
import type { Services } from '../../../shared/services.js';
import { parseInput } from '../../../shared/validation.js';
import { requireSession, tenantOf } from '../auth.js';

/** `/auth/totp…`: the signed-in member's second factor (an authenticator app's codes). */
export function totpRoutes(services: Services): Router {
  const r = Router();
  const memberOf = (req: Request) => tenantOf(req).member!;

  r.get('/auth/totp', requireSession, async (req, res) => {
    res.json(ok(await secondFactorStatus(services.db, memberOf(req).id)));
  });

  r.post('/auth/totp/enroll', requireSession, async (req, res) => {
    const enrolled = await enrollSecondFactor(services, memberOf(req));
    res.json(ok(enrolled, { messages: ['Add the secret to an authenticator app (or open otpauthUrl), then POST /auth/totp/confirm {code}.'] }));
  });

  r.post('/auth/totp/confirm', requireSession, async (req, res) => {
    const { code } = parseInput(secondFactorCodeSchema, req.body);
    const confirmed = await confirmSecondFactor(services, memberOf(req), tenantOf(req).orgId, code);
    res.json(ok(confirmed, { messages: ['Keep the recovery codes somewhere safe: each signs in once in place of a code, and they are not shown again.'] }));
  });

  r.post('/auth/totp/disable', requireSession, async (req, res) => {
    const { code } = parseInput(secondFactorCodeSchema, req.body);
    await disableSecondFactor(services, memberOf(req), tenantOf(req).orgId, code);
    res.json(ok({ enabled: false }));
  });

  r.post('/auth/totp/recovery-codes', requireSession, async (req, res) => {
    const proof = parseInput(recoveryCodesInputSchema, req.body);
    const made = await regenerateRecoveryCodes(services, memberOf(req), tenantOf(req).orgId, proof);
    res.json(ok(made, { messages: ['The old recovery codes no longer work. Keep these somewhere safe: they are not shown again.'] }));
  });

  return r;
}
