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

/** Keyed by yoga's Request, or by the fast lane's own key for a request it runs itself. */
export type RequestStates = WeakMap<object, RequestState>;
