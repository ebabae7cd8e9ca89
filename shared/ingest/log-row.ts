import type { Campaign } from './campaign.js';

/** A row of `cdn_logs` as inserted (JSONEachRow; column names of the table). */
export interface LogRow {
  org_id: string;
  distribution_id: string;
  timestamp: number;
  client_ip: string;
  method: string;
  host: string;
  path: string;
  status: number;
  bytes: number;
  serve_time_ms: number;
  cache_status: string;
  referer: string;
  referer_host: string;
  user_agent: string;
  country: string;
  continent: string;
  device: string;
  browser: string;
  os: string;
  is_bot: 0 | 1;
  bot_name: string;
  /** The visitor key (see VisitorScope), as decimal text of a UInt64; '0' when none. */
  visitor: string;
  /** The entry the path served, by the URL patterns of the sites serving the distribution; '' for none. */
  entry_id: string;
  /** Campaign values of the query string (see campaign.ts); '' when absent. */
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  utm_term: string;
  utm_content: string;
}

export interface Agent {
  device: string;
  browser: string;
  os: string;
  /** The bot's name ('' for a human): the agent's product token that the bot list matched. */
  bot: string;
}

/** What enrichment adds to a record (and the IP as stored). */
export interface Enrichment {
  clientIp: string;
  country: string;
  continent: string;
  refererHost: string;
  agent: Agent;
  visitor: string;
  entryId: string;
  campaign: Campaign;
}
