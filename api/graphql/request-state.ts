import type { DeliveryScope } from '../../shared/delivery/filters/filter-env.js';
import type { TokenIdentity } from '../../shared/tenancy/context.js';
import type { OrgSchema } from './schema-cache.js';

/** What the tenant plugin resolved for one HTTP request; later plugins read it. */
export interface RequestState {
  identity: TokenIdentity;
  scope: DeliveryScope;
  org: OrgSchema;
  requestId: string;
}

export type RequestStates = WeakMap<Request, RequestState>;
