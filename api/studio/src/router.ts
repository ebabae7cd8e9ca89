import { useSyncExternalStore } from 'react';

// A few screens need no router library: the path under /studio, pushed to the history.
const BASE = '/studio';
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());
window.addEventListener('popstate', notify);

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const snapshot = () => location.pathname.slice(BASE.length).replace(/\/$/, '') + location.search;

/** The current path under /studio ('' for the entries list), with its query string. */
export function useRoute(): string {
  return useSyncExternalStore(subscribe, snapshot);
}

export function navigate(to: string): void {
  history.pushState(null, '', BASE + to);
  notify();
  window.scrollTo(0, 0);
}

export const hrefOf = (to: string) => BASE + to;
