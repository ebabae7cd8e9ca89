import { z } from 'zod';

/** Input schemas of the people routes: the routes parse with them, the OpenAPI document derives from them. */

const email = z.string().trim().max(320).email('an email address');
const secret = z.string().min(1).max(1000);
const secondFactorCode = z.string().trim().min(1).max(40);
const roleName = z.string().trim().min(1).max(100).describe('A built-in role (owner, admin, developer, editor, author, viewer, analyst) or a custom role (its name or custom:<id>)');

export const invitationInputSchema = z.strictObject({ email, role: roleName });
export const acceptInvitationInputSchema = z.strictObject({ token: secret, password: secret });
export const signInInputSchema = z.strictObject({
  email,
  password: secret,
  organization: z.string().min(1).max(100).optional().describe("The organization's id or slug (default: the oldest membership)"),
  code: secondFactorCode.optional().describe('With a second factor: the 6 digits of the authenticator app, or a recovery code'),
});
export const passwordResetRequestSchema = z.strictObject({ email });
export const passwordResetInputSchema = z.strictObject({ token: secret, password: secret });
export const memberPatchSchema = z.strictObject({ role: roleName });
export const secondFactorCodeSchema = z.strictObject({ code: secondFactorCode.describe('The 6 digits of the authenticator app (disable: or a recovery code)') });
/** Regenerating recovery codes proves the account again: the current password, or a second-factor code. */
export const recoveryCodesInputSchema = z
  .strictObject({
    password: secret.optional().describe("The account's current password"),
    code: secondFactorCode.optional().describe('The 6 digits of the authenticator app, or an unused recovery code'),
  })
  .refine((p) => p.password !== undefined || p.code !== undefined, 'name "password" or "code"');
