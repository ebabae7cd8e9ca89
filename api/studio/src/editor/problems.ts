import { createContext, useContext } from 'react';

/**
 * The entry's validation problems by value path (see `problemsByPath`), for widgets nested in
 * component fields: each reads the problems of its own path, however deep it sits.
 */
export const ProblemsContext = createContext<ReadonlyMap<string, string[]>>(new Map());

const NONE: string[] = [];
export const useProblemsAt = (path: string): string[] => useContext(ProblemsContext).get(path) ?? NONE;
