// Reading a GraphQL subscription over server-sent events (the "distinct connections" mode of
// GraphQL over SSE that yoga speaks): `event: next` with a JSON result, `event: complete` at the end.

export interface SseMessage {
  event: string;
  data: any;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** The next message, or null when the stream ended; rejects after `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseMessage | null>;
  close(): void;
}

export async function openSse(url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown }): Promise<SseStream> {
  const controller = new AbortController();
  const res = await fetch(url, {
    method: init.method ?? 'POST',
    headers: { accept: 'text/event-stream', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    signal: controller.signal,
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const messages: SseMessage[] = [];
  let ended = false;
  // a read outlives a timeout: the next call waits for the same one, so no chunk is lost
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;

  const parse = () => {
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      if (data.length === 0 && event === 'message') continue; // a keep-alive comment
      const text = data.join('\n');
      messages.push({ event, data: text === '' ? null : JSON.parse(text) });
    }
  };

  return {
    status: res.status,
    headers: res.headers,
    async next(timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length === 0 && !ended) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no server-sent event within ${timeoutMs} ms`);
        let timer: NodeJS.Timeout | undefined;
        pending ??= reader.read();
        const chunk = await Promise.race([pending, new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), left)))]);
        clearTimeout(timer);
        if (chunk === 'timeout') continue;
        pending = null;
        if (chunk.done) ended = true;
        else {
          buffer += decoder.decode(chunk.value, { stream: true });
          parse();
        }
      }
      return messages.shift() ?? null;
    },
    close() {
      controller.abort();
    },
  };
}
