import type { AssetRow as AssetTableRow } from '../assets/asset-row.js';
/** Rows of the built-in resources as the read side selects them. */
export interface SectionRow {
  id: string;
  parent_id: string | null;
  title: string | null;
  slug: string | null;
  url: string | null;
  site_id: string | null;
  external_id: string | null;
  description: string | null;
}

export interface AuthorRow {
  id: string;
  user_id: string | null;
  byline: string | null;
  external_id: string | null;
  first_name: string | null;
  last_name: string | null;
  url: string | null;
  image_id: string | null;
  biography: string | null;
  profession: string[];
  email: string | null;
  website: string | null;
  facebook: string | null;
  instagram: string | null;
  twitter: string | null;
  linkedin: string | null;
  tiktok: string | null;
  telegram: string | null;
}

export interface LabelRow {
  id: string;
  name: string;
  description: string | null;
  color: string | null;
  site_id: string | null;
  external_id: string | null;
}

export interface ListRow {
  id: string;
  name: string;
  description: string | null;
  site_id: string | null;
  external_id: string | null;
}

/** An asset row as the read side selects it: the `assets` table's row type, owned by shared/assets. */
export type AssetRow = Omit<AssetTableRow, 'org_id' | 'created_at' | 'updated_at'>;

export interface ListEntryRow {
  list_id: string;
  position: number;
  start_at: Date | null;
  end_at: Date | null;
  entry_id: string;
}
