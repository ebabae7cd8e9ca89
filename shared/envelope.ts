/** The response envelope, used by every REST route (public, management, admin, ingest). */
export interface ResultInfo {
  totalCount: number;
  pageIndex: number;
  pageSize: number;
  totalPages: number;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

export interface Envelope<T> {
  success: boolean;
  errors: string[];
  messages: string[];
  result: T | null;
  resultInfo: ResultInfo | null;
}

export function ok<T>(result: T, options: { messages?: string[]; resultInfo?: ResultInfo } = {}): Envelope<T> {
  return { success: true, errors: [], messages: options.messages ?? [], result, resultInfo: options.resultInfo ?? null };
}

export function failure(errors: string[], messages: string[] = []): Envelope<null> {
  return { success: false, errors, messages, result: null, resultInfo: null };
}

export interface Page {
  pageIndex: number;
  pageSize: number;
}

export function resultInfo(page: Page, totalCount: number): ResultInfo {
  const totalPages = Math.ceil(totalCount / page.pageSize);
  return {
    totalCount,
    pageIndex: page.pageIndex,
    pageSize: page.pageSize,
    totalPages,
    hasNextPage: page.pageIndex < totalPages,
    hasPreviousPage: page.pageIndex > 1,
  };
}
