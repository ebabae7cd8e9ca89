/** Collects readable "field.path: message" reasons so one 422 can name every problem at once. */
export class Issues {
  readonly list: string[] = [];

  add(path: string, message: string): void {
    this.list.push(`${path}: ${message}`);
  }

  get empty(): boolean {
    return this.list.length === 0;
  }
}

/** "1 (HLS), 2 (DASH)" — the accepted codes, so a 422 tells the client what to send instead. */
export function describeCodes(list: readonly { id: number; enabled: boolean; value?: string; name?: string }[]): string {
  return list
    .filter((item) => item.enabled)
    .map((item) => `${item.id} (${item.value ?? item.name})`)
    .join(', ');
}

/** Reports unknown (or retired) codes and repeated codes of an id list. */
export function checkCodeList(
  issues: Issues,
  path: string,
  codes: readonly number[],
  list: readonly { id: number; enabled: boolean; value?: string; name?: string }[],
  what: string,
): void {
  const seen = new Set<number>();
  codes.forEach((code, i) => {
    if (seen.has(code)) issues.add(`${path}[${i}]`, `${what} ${code} is listed twice.`);
    else if (!list.some((item) => item.id === code && item.enabled)) {
      issues.add(`${path}[${i}]`, `unknown ${what} ${code}; expected one of ${describeCodes(list)}.`);
    }
    seen.add(code);
  });
}

/** Reports a single unknown (or retired) code; returns whether it was accepted. */
export function checkCode(
  issues: Issues,
  path: string,
  code: number,
  list: readonly { id: number; enabled: boolean; value?: string; name?: string }[],
  what: string,
): boolean {
  if (list.some((item) => item.id === code && item.enabled)) return true;
  issues.add(path, `unknown ${what} ${code}; expected one of ${describeCodes(list)}.`);
  return false;
}
