import type { OutputGroupRecord } from './types.js';

/** One row of the API's output-group list; the id is a string there, an int32 in the path. */
export interface OutputGroupListItem {
  id: string;
  name: string;
  customName: string;
  type: number;
  description: string;
}

export function toListItem(group: Pick<OutputGroupRecord, 'id' | 'name' | 'customName' | 'type' | 'description'>): OutputGroupListItem {
  return {
    id: String(group.id),
    name: group.name,
    customName: group.customName,
    type: group.type,
    description: group.description,
  };
}
