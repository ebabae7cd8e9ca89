import { rulesOf, type Me } from '../types';

// What the member's role lets them change, read from `/auth/me` as the API's policy decides it
// (shared/people/request-policy.ts): the Studio hides the controls the API would refuse.

/** Models, components, locales (and delivery settings): the `models` settings area. */
export const canChangeModels = (me: Me) => me.rules.settings.includes('models');

/** Sites: the policy puts their writes in the `analytics` area (an entry names its site). */
export const canChangeSites = (me: Me) => me.rules.settings.includes('analytics');

/** Sections, authors, labels and lists: writing them is updating content of every model. */
export const canChangeStructures = (me: Me) => rulesOf(me, '*')?.update === true;

/** Whether the role reads content at all (the management API's reads need it or a settings area). */
export const readsContent = (me: Me) => Object.values(me.rules.models).some((r) => r.read) || me.rules.settings.some((a) => a !== 'analytics');
